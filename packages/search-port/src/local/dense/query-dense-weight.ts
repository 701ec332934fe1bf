import { containsCjk } from "@lookup-knowledge/text";

/** The dense weights of a port: one for queries in CJK scripts (Chinese, Japanese, Korean), one for queries in other scripts. */
export interface DenseWeights {
  denseWeight: number;
  cjkDenseWeight: number;
}

/**
 * The dense score's weight in one query's fused score: `denseWeight` and `cjkDenseWeight`
 * mixed by the share of the query's distinct analysed `terms` in CJK scripts ("APISIX 的
 * 插件" sits between the two). A query with no terms (stop words only) takes
 * `cjkDenseWeight` when its `text` holds a CJK character, else `denseWeight`.
 */
export function queryDenseWeight(text: string, terms: readonly string[], { denseWeight, cjkDenseWeight }: DenseWeights): number {
  if (denseWeight === cjkDenseWeight) return denseWeight;
  const distinct = new Set(terms);
  if (distinct.size === 0) return containsCjk(text) ? cjkDenseWeight : denseWeight;
  let cjk = 0;
  for (const term of distinct) if (containsCjk(term)) cjk += 1;
  const share = cjk / distinct.size;
  return denseWeight * (1 - share) + cjkDenseWeight * share;
}
