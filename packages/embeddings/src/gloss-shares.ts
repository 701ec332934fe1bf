import { chineseStopWords, cjkWordsOfRuns } from "@lookup-knowledge/text";
import type { GlossTable } from "./load-gloss-table.js";

/**
 * The word-table ranks a text's Chinese words stand for, each with its share: every CJK run
 * is cut into words by jieba (`cjkWordsOfRuns`), and each word that is not a stop word and
 * that the gloss table holds spreads a weight over the English words of its definition (one
 * in all, so a word with a long definition weighs no more than one with a short one). In
 * `"document"` mode a word seen `n` times weighs `1 + ln n`, in `"query"` mode 1, as English
 * words do. Words the table does not hold give nothing here (their characters still give
 * the lexical part's bigrams).
 */
export function glossShares(runs: readonly string[], mode: "query" | "document", table: GlossTable): Map<number, number> {
  const counts = new Map<string, number>();
  for (const words of cjkWordsOfRuns(runs)) {
    for (const word of words) {
      if (chineseStopWords.has(word)) continue;
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  const shares = new Map<number, number>();
  for (const [word, count] of counts) {
    const ranks = table.ranksOf(word);
    if (ranks === undefined) continue;
    const weight = (mode === "document" ? 1 + Math.log(count) : 1) / ranks.length;
    for (const rank of ranks) shares.set(rank, (shares.get(rank) ?? 0) + weight);
  }
  return shares;
}
