/** Graded relevance of documents to one query: document id -> gain (> 0). */
export type Judgments = ReadonlyMap<string, number>;

/** nDCG@k with the usual log2 discount and the ideal ordering of the judged gains. */
export function ndcgAt(ranking: readonly string[], judgments: Judgments, k: number): number {
  let dcg = 0;
  const seen = new Set<string>();
  for (const [index, id] of ranking.slice(0, k).entries()) {
    if (seen.has(id)) continue;
    seen.add(id);
    const gain = judgments.get(id) ?? 0;
    if (gain > 0) dcg += gain / Math.log2(index + 2);
  }
  const ideal = [...judgments.values()].sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((sum, gain, index) => sum + gain / Math.log2(index + 2), 0);
  return idcg === 0 ? 0 : dcg / idcg;
}

/** Share of the relevant documents found in the first k. */
export function recallAt(ranking: readonly string[], judgments: Judgments, k: number): number {
  const relevant = [...judgments.entries()].filter(([, gain]) => gain > 0).map(([id]) => id);
  if (relevant.length === 0) return 0;
  const top = new Set(ranking.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

/** Reciprocal rank of the first relevant document within the first k, else 0. */
export function mrrAt(ranking: readonly string[], judgments: Judgments, k: number): number {
  for (const [index, id] of ranking.slice(0, k).entries()) {
    if ((judgments.get(id) ?? 0) > 0) return 1 / (index + 1);
  }
  return 0;
}

export interface RankingScores {
  ndcg10: number;
  recall5: number;
  recall20: number;
  mrr10: number;
}

/** The mean of each metric over queries. */
export function scoreRankings(runs: ReadonlyArray<{ ranking: readonly string[]; judgments: Judgments }>): RankingScores {
  const total = { ndcg10: 0, recall5: 0, recall20: 0, mrr10: 0 };
  for (const { ranking, judgments } of runs) {
    total.ndcg10 += ndcgAt(ranking, judgments, 10);
    total.recall5 += recallAt(ranking, judgments, 5);
    total.recall20 += recallAt(ranking, judgments, 20);
    total.mrr10 += mrrAt(ranking, judgments, 10);
  }
  const count = Math.max(1, runs.length);
  return { ndcg10: total.ndcg10 / count, recall5: total.recall5 / count, recall20: total.recall20 / count, mrr10: total.mrr10 / count };
}
