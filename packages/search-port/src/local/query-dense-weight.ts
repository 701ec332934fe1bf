import { containsCjk } from "@lookup-knowledge/text";

/** The dense weights of a port: one for queries in space-separated scripts, one for queries in CJK scripts. */
export interface DenseWeights {
  denseWeight: number;
  cjkDenseWeight: number;
}

/**
 * The dense score's weight in one query's fused score: `denseWeight` and `cjkDenseWeight`
 * mixed by the share of the query's distinct analysed terms in CJK scripts ("TiDB 的 SQL 优化"
 * sits between the two). A query with no terms takes `denseWeight`.
 */
export function queryDenseWeight(terms: readonly string[], { denseWeight, cjkDenseWeight }: DenseWeights): number {
  if (denseWeight === cjkDenseWeight) return denseWeight;
  const distinct = new Set(terms);
  if (distinct.size === 0) return denseWeight;
  let cjk = 0;
  for (const term of distinct) if (containsCjk(term)) cjk += 1;
  const share = cjk / distinct.size;
  return denseWeight * (1 - share) + cjkDenseWeight * share;
}
