import type { EvidenceBlock } from "@lookup-knowledge/core";
import type { RankedCandidate } from "./rerank-candidates.js";

/** The boost signals that come from L0 hints (the others come from the query). */
const l0Signals: ReadonlySet<string> = new Set(["title", "keyword", "entity", "domain"]);

/**
 * Turns ranked candidates into evidence blocks, in the shape the agent sees (R20): rank
 * 1..n in the given order, identity, source, title and breadcrumb when known, content,
 * readable hit reasons, the port's score when it gave one, and the rank score.
 * `retrievalLayer` is `L0+L1` when an L0 hint boosted the block (title, keyword, entity or
 * domain signal), else `L1` (R23).
 */
export function buildEvidenceBlocks(ranked: RankedCandidate[]): EvidenceBlock[] {
  return ranked.map((candidate, index): EvidenceBlock => {
    const block: EvidenceBlock = {
      evidenceKey: candidate.evidenceKey,
      source: candidate.source,
      retrievalLayer: candidate.boosts.some((boost) => l0Signals.has(boost.signal)) ? "L0+L1" : "L1",
      content: candidate.content,
      hitReasons: [...new Set(candidate.hitReasons.map((reason) => reason.detail))],
      rankScore: candidate.rankScore,
      rank: index + 1,
    };
    if (candidate.docId !== undefined) block.docId = candidate.docId;
    if (candidate.chunkIndex !== undefined) block.chunkIndex = candidate.chunkIndex;
    if (candidate.title !== undefined) block.title = candidate.title;
    if (candidate.breadcrumb !== undefined) block.breadcrumb = candidate.breadcrumb;
    if (candidate.score !== undefined) block.score = candidate.score;
    return block;
  });
}
