import type { ContextPack, L0Hints, RetrievalAttempt } from "@lookup-knowledge/core";
import type { PostprocessOutput } from "@lookup-knowledge/postprocess";
import { filterJson } from "./lookup-span-attributes.js";
import type { TelemetryAttributes } from "./telemetry-tracer.js";

// The attributes of the stage spans (`lookup-stage-spans.ts`): counts, outcomes and keys, never
// the query or evidence content. L0 domains are the knowledge base's own category names.

/** The hints stage: how much of the L0 index the query matched. */
export function hintsAttributes(hints: L0Hints): TelemetryAttributes {
  return {
    "lookup_knowledge.hints.entries": hints.entries.length,
    "lookup_knowledge.hints.domains": hints.domains,
    "lookup_knowledge.hints.keywords": hints.keywords.length,
    "lookup_knowledge.hints.titles": hints.titles.length,
  };
}

/** An attempt as it starts: its number, the width asked of the store and its filter. */
export function attemptStartAttributes(attempt: number, retrieveK: number, filter: unknown, l0Filtered: boolean): TelemetryAttributes {
  return {
    "lookup_knowledge.attempt": attempt,
    "lookup_knowledge.retrieve_k": retrieveK,
    "lookup_knowledge.l0_filtered": l0Filtered,
    ...(filter === undefined ? {} : { "lookup_knowledge.filter": filterJson(filter) ?? "(not JSON)" }),
  };
}

/** An attempt as it ends: the outcome of R9's classification and what it found. */
export function attemptEndAttributes(trace: RetrievalAttempt): TelemetryAttributes {
  return {
    "lookup_knowledge.attempt_outcome": trace.outcome,
    "lookup_knowledge.candidate_count": trace.candidateCount,
    "lookup_knowledge.evidence_count": trace.evidenceCount,
    "lookup_knowledge.rejected_hits": trace.rejectedHits.length,
    ...(trace.topScore === undefined ? {} : { "lookup_knowledge.top_score": trace.topScore }),
    ...(trace.error ? { "error.type": trace.error.code } : {}),
  };
}

/** Post-processing and the rule rerank of one attempt's candidates. */
export function rerankAttributes(candidates: number, output: PostprocessOutput): TelemetryAttributes {
  return {
    "lookup_knowledge.candidate_count": candidates,
    "lookup_knowledge.duplicates_merged": output.duplicatesMerged,
    "lookup_knowledge.dropped_by_cap": output.droppedByCap.length,
    "lookup_knowledge.dropped_by_return_n": output.droppedByReturnN.length,
    "lookup_knowledge.evidence_count": output.evidenceBlocks.length,
  };
}

/** Context packing under the budget. */
export function packAttributes(pack: ContextPack): TelemetryAttributes {
  return {
    "lookup_knowledge.context_budget": pack.budget,
    "lookup_knowledge.context_used": pack.used,
    "lookup_knowledge.blocks_included": pack.summary.included.length,
    "lookup_knowledge.blocks_omitted": pack.summary.omitted.length,
    "lookup_knowledge.blocks_truncated": pack.summary.truncated.length,
  };
}
