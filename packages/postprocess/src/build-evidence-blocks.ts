import type { EvidenceBlock, RetrievalLayer } from "@lookup-knowledge/core";
import { describeHitReasons } from "./describe-hit-reasons.js";
import type { RankedCandidate } from "./rerank-candidates.js";

/**
 * Turns ranked candidates into evidence blocks, in the shape the agent sees (R20): rank
 * 1..n in the given order, identity, source, title and breadcrumb when known, content,
 * readable hit reasons (and `why`, the same reasons as one plain-language line for the model,
 * `describeHitReasons`), the port's score when it gave one, and the rank score; and the
 * chunk's own metadata (a shallow copy of the hit's) when it had any, as data for callers.
 * `retrievalLayer` is the lookup's layer (R23): `L0+L1` when L0 hints took part, `L1` when
 * only L1 did; which hints touched a block is told by its hit reasons.
 */
export function buildEvidenceBlocks(
  ranked: RankedCandidate[],
  options: { retrievalLayer: Extract<RetrievalLayer, "L0+L1" | "L1"> },
): EvidenceBlock[] {
  return ranked.map((candidate, index): EvidenceBlock => {
    const block: EvidenceBlock = {
      evidenceKey: candidate.evidenceKey,
      source: candidate.source,
      retrievalLayer: options.retrievalLayer,
      content: candidate.content,
      hitReasons: [...new Set(candidate.hitReasons.map((reason) => reason.detail))],
      why: describeHitReasons(candidate.hitReasons),
      rankScore: candidate.rankScore,
      rank: index + 1,
    };
    if (candidate.docId !== undefined) block.docId = candidate.docId;
    if (candidate.chunkIndex !== undefined) block.chunkIndex = candidate.chunkIndex;
    if (candidate.title !== undefined) block.title = candidate.title;
    if (candidate.breadcrumb !== undefined) block.breadcrumb = candidate.breadcrumb;
    if (candidate.score !== undefined) block.score = candidate.score;
    if (Object.keys(candidate.metadata).length > 0) block.metadata = Object.fromEntries(Object.entries(candidate.metadata));
    return block;
  });
}
