import type { Candidate, EvidenceBlock, RetrievalAttempt } from "@lookup-knowledge/core";

/**
 * The page behind an attempt's `topScore` (issue 37 item 1), picked the way `runAttempt` picks
 * the score: the port's judged best hit when its judgement stands, the port's first hit when
 * the judgement was lost (the score is then 0, but that hit is still the closest), else the
 * evidence block with the best score. Undefined when no hit stands behind the score.
 */
export function topHitSource(input: {
  candidates: readonly Candidate[];
  evidenceBlocks: readonly EvidenceBlock[];
  judgementLost: boolean;
}): RetrievalAttempt["topSource"] {
  const judged = input.candidates.find((candidate) => candidate.portRank === 0);
  if (judged?.answerability !== undefined) return pageOf(judged);
  if (input.judgementLost && input.candidates.length > 0) {
    const first = input.candidates.reduce((best, candidate) => (candidate.portRank < best.portRank ? candidate : best));
    return pageOf(first);
  }
  let top: EvidenceBlock | undefined;
  for (const block of input.evidenceBlocks) {
    if (block.score !== undefined && (top?.score === undefined || block.score > top.score)) top = block;
  }
  return top === undefined ? undefined : pageOf(top);
}

function pageOf(hit: { source: string; title?: string }): { source: string; title?: string } {
  return hit.title === undefined ? { source: hit.source } : { source: hit.source, title: hit.title };
}
