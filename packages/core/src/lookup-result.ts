import type { ContextPack } from "./context-pack.js";
import type { EvidenceBlock } from "./evidence-block.js";
import type { RerankTrace } from "./rerank-trace.js";
import type { RetrievalTrace } from "./retrieval-trace.js";

/**
 * How well L1 supports the answer (R22): from the port's own similarity only, never from
 * L0 boosts. `high` and `medium` need a top score at or above the reference threshold,
 * `low` is below it, `unscored` when the port gave no scores, `none` without evidence.
 */
export type RelevanceLevel = "high" | "medium" | "low" | "unscored" | "none";

/** Whether the evidence is likely all there is, and what was cut. */
export interface CompletenessHint {
  status: "complete" | "partial" | "none";
  notes: string[];
}

export type EvidenceStatus = "evidence" | "no_evidence";

interface LookupResultBase {
  query: string;
  message: string;
  retrievalTrace: RetrievalTrace;
}

/** A lookup that found evidence (R21). */
export interface FoundLookupResult extends LookupResultBase {
  found: true;
  evidenceStatus: "evidence";
  evidenceBlocks: EvidenceBlock[];
  contextPack: ContextPack;
  rerankTrace: RerankTrace;
  relevanceLevel: Exclude<RelevanceLevel, "none">;
  completenessHint: CompletenessHint;
}

/** A lookup that found nothing usable: an honest "no evidence" with its trace (R11, R21). */
export interface NoEvidenceLookupResult extends LookupResultBase {
  found: false;
  evidenceStatus: "no_evidence";
  evidenceBlocks: [];
  relevanceLevel: "none";
  completenessHint: CompletenessHint;
}

export type LookupResult = FoundLookupResult | NoEvidenceLookupResult;
