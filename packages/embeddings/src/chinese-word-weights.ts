import { chineseStopWords, cjkWordsOfRuns } from "@lookup-knowledge/text";

/**
 * The Chinese words of a text's CJK runs (cut by jieba, `cjkWordsOfRuns`), stop words left
 * out, each with its weight: in `"document"` mode a word seen `n` times weighs `1 + ln n`,
 * in `"query"` mode 1, as English words do.
 */
export function chineseWordWeights(runs: readonly string[], mode: "query" | "document"): Map<string, number> {
  const counts = new Map<string, number>();
  for (const words of cjkWordsOfRuns(runs)) {
    for (const word of words) {
      if (chineseStopWords.has(word)) continue;
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  if (mode === "document") for (const [word, count] of counts) counts.set(word, 1 + Math.log(count));
  else for (const word of counts.keys()) counts.set(word, 1);
  return counts;
}
