import {
  LookupKnowledgeError,
  errorMessage,
  type Candidate,
  type L0Hints,
  type MetadataFilter,
  type RagConfig,
  type RetrievalAttempt,
} from "@lookup-knowledge/core";
import type { PostprocessOutput, RerankWeights } from "@lookup-knowledge/postprocess";
import { andFilters, type KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import { runWithTimeout } from "../run-with-timeout.js";
import { inStageSpan } from "../telemetry/in-stage-span.js";
import type { LookupStageSpans, StageSpan } from "../telemetry/lookup-stage-spans.js";
import { attemptEndAttributes, attemptStartAttributes, rerankAttributes } from "../telemetry/stage-span-attributes.js";
import { classifyAttempt, leftOutShare, topEvidenceScore } from "./classify-attempt.js";
import type { LookupStages } from "./lookup-stages.js";
import { topHitSource } from "./top-hit-source.js";

/** One L1 attempt: its trace entry, whether it is usable, and its post-processed evidence. */
export interface AttemptRun {
  trace: RetrievalAttempt;
  usable: boolean;
  output?: PostprocessOutput;
  rejectedHits: number;
}

/** What every attempt of one retriever shares. */
export interface AttemptContext {
  searchPort: KnowledgeSearchPort;
  config: Readonly<RagConfig>;
  weights: RerankWeights;
  stages: LookupStages;
}

export interface AttemptInput {
  attempt: number;
  /** The query sent to the port (expanded on the first attempt). */
  query: string;
  /** The normalised query the reranker reads. */
  rawQuery: string;
  hints: L0Hints;
  callerFilter?: MetadataFilter;
  l0Filter?: MetadataFilter;
  signal?: AbortSignal;
}

/**
 * Runs one L1 search with the caller's filter and the L0 filter joined (R7, R12), under
 * `rag.l1-timeout-ms`, then post-processes its hits and classifies the attempt. A port that
 * throws, hangs or returns malformed hits gives an `error` attempt or rejected hits, never a
 * throw; only the caller's own abort is rethrown. With `spans` (OpenTelemetry on), the attempt
 * is a `lookup_knowledge.attempt` span and its post-processing a `lookup_knowledge.rerank` span
 * under it.
 */
export async function runAttempt(context: AttemptContext, input: AttemptInput, spans?: LookupStageSpans): Promise<AttemptRun> {
  const { config } = context;
  const filter = andFilters(input.callerFilter, input.l0Filter);
  if (!spans) return searchAndClassify(context, input, filter, undefined, undefined);
  const span = spans.start("attempt", attemptStartAttributes(input.attempt, config.retrieveK, filter, input.l0Filter !== undefined));
  try {
    const run = await searchAndClassify(context, input, filter, spans, span);
    span.end(attemptEndAttributes(run.trace));
    return run;
  } catch (error) {
    span.fail(error);
    throw error;
  }
}

async function searchAndClassify(
  context: AttemptContext,
  input: AttemptInput,
  filter: MetadataFilter | undefined,
  spans: LookupStageSpans | undefined,
  attemptSpan: StageSpan | undefined,
): Promise<AttemptRun> {
  const { searchPort, config, stages } = context;
  // An attempt steered by L0 names the caller's part as the scope, so the port judges the
  // steered list only against the caller's records (R9), never against other tenants' (R12).
  const scope = input.l0Filter ? { scopeFilter: input.callerFilter ?? {} } : {};
  const started = performance.now();
  const base = {
    attempt: input.attempt,
    query: input.query,
    topK: config.retrieveK,
    ...(filter ? { filter } : {}),
    ...(input.l0Filter ? { l0Filter: input.l0Filter } : {}),
  };
  let hits: unknown;
  try {
    hits = await runWithTimeout(
      (signal) => searchPort.search({ query: input.query, topK: config.retrieveK, ...(filter ? { filter } : {}), ...scope, signal }),
      { timeoutMs: config.l1TimeoutMs, operationName: "search port", ...(input.signal ? { signal: input.signal } : {}) },
    );
  } catch (error) {
    if (input.signal?.aborted) throw input.signal.reason;
    const code = LookupKnowledgeError.isInstance(error) ? error.code : "search_failed";
    return {
      trace: {
        ...base,
        candidateCount: 0,
        evidenceCount: 0,
        outcome: "error",
        rejectedHits: [],
        error: { code, message: errorMessage(error) },
        durationMs: performance.now() - started,
      },
      usable: false,
      rejectedHits: 0,
    };
  }
  const { candidates, rejected, judgementLost } = stages.normalizeHits(hits, { attempt: input.attempt });
  const output = rerank(context, input, candidates, spans?.start("rerank", {}, attemptSpan));
  // The port judges its best hit; that judgement is the attempt's top score (R9, R11) and
  // its signals explain the outcome. A port that does not judge is read by its evidence's
  // best similarity, on the evidence that survived post-processing.
  // When the port's judgement was lost (its hit, or the judgement itself, refused as malformed),
  // the attempt has no score that passes, rather than the hits' ranking scores in its place.
  const answerability = candidates.find((candidate) => candidate.portRank === 0)?.answerability;
  const unjudged = judgementLost && candidates.length > 0 ? 0 : undefined;
  const topScore = answerability?.score ?? unjudged ?? topEvidenceScore(output.evidenceBlocks);
  const topSource = topScore === undefined ? undefined : topHitSource({ candidates, evidenceBlocks: output.evidenceBlocks, judgementLost });
  const evidenceCount = output.evidenceBlocks.length;
  const leftOut = leftOutShare({ ...(input.l0Filter ? { l0Filter: input.l0Filter } : {}), ...(answerability ? { answerability } : {}) });
  const outcome = classifyAttempt({
    candidateCount: candidates.length,
    evidenceCount,
    topScore,
    referenceThreshold: config.referenceThreshold,
    leftOutShare: leftOut,
  });
  return {
    trace: {
      ...base,
      candidateCount: candidates.length,
      evidenceCount,
      ...(topScore !== undefined ? { topScore } : {}),
      ...(topSource !== undefined ? { topSource } : {}),
      ...(answerability !== undefined ? { answerability } : {}),
      ...(outcome === "low_quality" && leftOut !== undefined ? { leftOutShare: leftOut } : {}),
      outcome,
      rejectedHits: rejected,
      durationMs: performance.now() - started,
    },
    usable: outcome === "usable",
    output,
    rejectedHits: rejected.length,
  };
}

/** Post-processing and the rule rerank of the attempt's candidates, in the `rerank` span when there is one. */
function rerank(context: AttemptContext, input: AttemptInput, candidates: Candidate[], span: StageSpan | undefined): PostprocessOutput {
  const { config, weights, stages } = context;
  return inStageSpan(
    span,
    () =>
      stages.postprocessCandidates(candidates, {
        query: input.rawQuery,
        hints: input.hints,
        maxChunksPerDocument: config.maxChunksPerDocument,
        returnN: config.returnN,
        weights,
      }),
    (output) => rerankAttributes(candidates.length, output),
  );
}
