import { LookupKnowledgeError, type RerankBoost } from "@lookup-knowledge/core";
import { compareRanked, type RankOrder } from "./internal/compare-ranked.js";
import { documentKey } from "./internal/document-key.js";
import { roundTo } from "./internal/numbers.js";
import type { PostprocessErrorCode } from "./postprocess-error-code.js";

/** The signal name of the demotion in the rerank trace. */
export const repeatedDocumentSignal = "repeated_document";

/**
 * Gives a document's further blocks a smaller say (R18), so that the returned width holds more
 * documents: in rank order, a document's second block keeps `(1 - share)` of its rank score,
 * its third `(1 - share)^2`, and so on; its best block keeps all of it. A further block that
 * is only about as good as another document's best falls behind it; one clearly better
 * keeps its place. Each demotion is recorded as a negative boost of signal
 * `repeated_document` (in the rerank trace, not in the hit reasons the agent reads).
 * The result is in rank order. A share of 0 changes no score; a share outside 0..1 is refused
 * naming it.
 */
export function demoteRepeatedDocuments<T extends RankOrder & { docId?: string; boosts: RerankBoost[] }>(
  ranked: readonly T[],
  share: number,
): T[] {
  if (typeof share !== "number" || !Number.isFinite(share) || share < 0 || share > 1) {
    throw new LookupKnowledgeError<PostprocessErrorCode>({
      code: "invalid_argument",
      message: `repeatedDocument is a share of a block's score, from 0 to 1, got ${String(share)}`,
    });
  }
  // In rank order first, so a document's best block is the one that keeps its whole score.
  const ordered = [...ranked].sort(compareRanked);
  if (share === 0) return ordered;
  const seen = new Map<string, number>();
  const demoted = ordered.map((candidate) => {
    const document = documentKey(candidate);
    const before = seen.get(document) ?? 0;
    seen.set(document, before + 1);
    if (before === 0) return candidate;
    const rankScore = roundTo(candidate.rankScore * (1 - share) ** before, 6);
    // Nothing to record for a block whose score was (about) 0 already.
    if (rankScore === candidate.rankScore) return candidate;
    const boost: RerankBoost = {
      signal: repeatedDocumentSignal,
      reason: `block ${before + 1} of its document: keeps ${roundTo(100 * (1 - share) ** before, 1)}% of its score`,
      amount: roundTo(rankScore - candidate.rankScore, 6),
    };
    return Object.assign({}, candidate, { rankScore, boosts: [...candidate.boosts, boost] });
  });
  return demoted.sort(compareRanked);
}
