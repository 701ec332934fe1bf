import { assessCompleteness, assessRelevance, normalizeHits, packContext, postprocessCandidates } from "@lookup-knowledge/postprocess";
import { buildToolInvocationRecord } from "@lookup-knowledge/trace-store/recording";

/**
 * The stage functions a lookup calls after L1 retrieval, in the order of R1: hit identity,
 * post-processing, context packing, the relevance and completeness judgements, and the trace
 * record. The retriever takes them as one object so a test can wrap each stage (to see the
 * order it runs in) without replacing a whole package.
 */
export interface LookupStages {
  normalizeHits: typeof normalizeHits;
  postprocessCandidates: typeof postprocessCandidates;
  packContext: typeof packContext;
  assessRelevance: typeof assessRelevance;
  assessCompleteness: typeof assessCompleteness;
  buildToolInvocationRecord: typeof buildToolInvocationRecord;
}

/** The stages every retriever runs unless a test injects others. */
export const defaultLookupStages: LookupStages = Object.freeze({
  normalizeHits,
  postprocessCandidates,
  packContext,
  assessRelevance,
  assessCompleteness,
  buildToolInvocationRecord,
});
