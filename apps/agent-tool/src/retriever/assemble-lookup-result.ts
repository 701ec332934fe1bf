import {
  hasL0Hints,
  type FallbackReason,
  type L0Hints,
  type LookupResult,
  type RagConfig,
  type RetrievalAttempt,
  type RetrievalLayer,
  type RetrievalTrace,
} from "@lookup-knowledge/core";
import { inStageSpan } from "../telemetry/in-stage-span.js";
import type { LookupStageSpans } from "../telemetry/lookup-stage-spans.js";
import { packAttributes } from "../telemetry/stage-span-attributes.js";
import type { TransformedQuery } from "../transform-query.js";
import type { LookupStages } from "./lookup-stages.js";
import type { AttemptRun } from "./run-attempt.js";

/** Content characters every packed block gets at least, budget permitting. */
const minPackedBlockChars = 160;

export interface AssembleInput {
  transformed: TransformedQuery;
  hints: L0Hints;
  attempts: AttemptRun[];
  fallbackReason: FallbackReason | undefined;
}

/**
 * Stages 5-7 of R1 on the usable attempt (the first one, if any): context packing within
 * `rag.context-budget`, the relevance and completeness judgements, and the result with its
 * retrieval trace. Without a usable attempt the result is `no_evidence`, with a message that
 * says why (L1 off, every search failed, or the best score below the threshold). With `spans`
 * (OpenTelemetry on), packing is a `lookup_knowledge.pack` span.
 */
export function assembleLookupResult(
  config: Readonly<RagConfig>,
  stages: LookupStages,
  input: AssembleInput,
  spans?: LookupStageSpans,
): LookupResult {
  const { transformed, hints, attempts, fallbackReason } = input;
  const usable = attempts.find((attempt) => attempt.usable);
  const last = usable ?? attempts[attempts.length - 1];
  const candidateCount = last?.trace.candidateCount ?? 0;
  const layer: RetrievalLayer = usable || candidateCount > 0 ? (hasL0Hints(hints) ? "L0+L1" : "L1") : hasL0Hints(hints) ? "L0" : "none";
  const retrievalTrace: RetrievalTrace = {
    query: {
      received: transformed.received,
      normalized: transformed.normalized,
      transformed: transformed.transformed,
      truncated: transformed.truncated,
      addedTerms: transformed.addedTerms,
    },
    hints,
    l1Enabled: config.l1Enabled,
    retrievalLayer: layer,
    attempts: attempts.map((attempt) => attempt.trace),
    ...(fallbackReason ? { fallbackReason } : {}),
    candidateCount,
    evidenceCount: usable?.output?.evidenceBlocks.length ?? 0,
    referenceThreshold: config.referenceThreshold,
  };
  if (!usable?.output) {
    return {
      found: false,
      evidenceStatus: "no_evidence",
      query: transformed.normalized,
      message: noEvidenceMessage(attempts, config),
      evidenceBlocks: [],
      retrievalTrace,
      relevanceLevel: "none",
      completenessHint: { status: "none", notes: [] },
    };
  }
  const { evidenceBlocks, rerankTrace, droppedByCap, droppedByReturnN } = usable.output;
  const contextPack = inStageSpan(
    spans?.start("pack"),
    () =>
      stages.packContext(evidenceBlocks, {
        budget: config.contextBudget,
        minBlockChars: Math.min(minPackedBlockChars, config.contextBudget),
      }),
    packAttributes,
  );
  const relevance = stages.assessRelevance(evidenceBlocks, {
    referenceThreshold: config.referenceThreshold,
    judged: usable.trace.answerability?.score,
  });
  const completenessHint = stages.assessCompleteness({
    contextPack,
    droppedByCap: droppedByCap.length,
    droppedByReturnN: droppedByReturnN.length,
    rejectedHits: usable.rejectedHits,
    relevanceLevel: relevance.relevanceLevel,
  });
  const sources = new Set(evidenceBlocks.map((block) => block.source)).size;
  return {
    found: true,
    evidenceStatus: "evidence",
    query: transformed.normalized,
    message: `Found ${evidenceBlocks.length} evidence block${evidenceBlocks.length === 1 ? "" : "s"} from ${sources} source${sources === 1 ? "" : "s"}. ${relevance.reason}`,
    evidenceBlocks,
    contextPack,
    retrievalTrace,
    rerankTrace,
    relevanceLevel: relevance.relevanceLevel,
    completenessHint,
  };
}

function noEvidenceMessage(attempts: AttemptRun[], config: Readonly<RagConfig>): string {
  const base = "No knowledge evidence was found for this query in the knowledge base.";
  if (!config.l1Enabled) return `${base} Semantic retrieval (L1) is disabled by rag.l1-enabled=false; keyword hints are never evidence.`;
  const outcomes = attempts.map((attempt) => attempt.trace);
  // The message reaches the model: a failure is named by its code only. Its own text (local
  // paths, a store's internals) stays in the retrieval trace for whoever runs the tool.
  if (outcomes.length > 0 && outcomes.every((attempt) => attempt.outcome === "error")) {
    return `${base} The search failed on every attempt (${[...new Set(outcomes.map(failureCode))].join(", ")}); the retrieval trace holds the details.`;
  }
  const failed = outcomes
    .filter((attempt) => attempt.outcome === "error")
    .map((attempt) => ` Attempt ${attempt.attempt} failed (${failureCode(attempt)}).`)
    .join("");
  return `${base}${refusalNote(outcomes, config.referenceThreshold)}${failed}`;
}

/** Why the refused attempts were refused: the best score below the threshold, or a filter that left better matches out. */
function refusalNote(outcomes: readonly RetrievalAttempt[], threshold: number): string {
  // An L0-filtered attempt can be refused for the better match its filter left out, whatever its score.
  let best: RetrievalAttempt | undefined;
  for (const attempt of outcomes) {
    if (attempt.outcome !== "low_quality" || (attempt.topScore ?? 0) >= threshold) continue;
    if (best === undefined || (attempt.topScore ?? 0) > (best.topScore ?? 0)) best = attempt;
  }
  if (best !== undefined) {
    const score = (best.topScore ?? 0).toFixed(3);
    return best.answerability !== undefined
      ? ` The closest matches were judged unlikely to answer it (${score}, below the reference threshold ${threshold}).`
      : ` The closest matches scored ${score}, below the reference threshold ${threshold}.`;
  }
  return outcomes.some((attempt) => attempt.leftOutShare !== undefined)
    ? " The L0-filtered search left better matches out, and no other search found usable evidence."
    : "";
}

/** An attempt's error code, as a model may read it: letters, digits and `_` only. */
function failureCode(attempt: RetrievalAttempt): string {
  const code = attempt.error?.code ?? "";
  return /^[a-z0-9_]{1,64}$/i.test(code) ? code : "search_failed";
}
