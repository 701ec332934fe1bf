/** What the rerank orders by: the rank score, then the port's order, then the evidence key. */
export interface RankOrder {
  rankScore: number;
  portRank: number;
  evidenceKey: string;
}

/** By rank score, then the port's order, then evidence key: a total order, so ties never depend on input order. */
export function compareRanked(a: RankOrder, b: RankOrder): number {
  if (a.rankScore !== b.rankScore) return b.rankScore - a.rankScore;
  if (a.portRank !== b.portRank) return a.portRank - b.portRank;
  return a.evidenceKey < b.evidenceKey ? -1 : a.evidenceKey > b.evidenceKey ? 1 : 0;
}
