import { chineseQuestionWords, chineseStopWords } from "./stop-words.js";
import { sharedCjkSegmenter } from "./cjk-segmenter.js";

/**
 * How the lexical view turns a run of CJK characters into terms:
 * - `"bigrams"`: overlapping pairs of characters, the run first cut at Chinese question
 *   words (`chineseQuestionWords`); a lone character is its own term unless a stop word;
 * - `"words"`: the dictionary words jieba finds, stop words left out;
 * - `"words+bigrams"`: the bigrams, plus the dictionary words of three or more characters
 *   (a word of two is a bigram already), so a long word (分布式, 负载均衡) also matches whole.
 */
export type CjkSegmentation = "bigrams" | "words" | "words+bigrams";

/** The segmentation the lexical view uses: the best on the development half of both Chinese question sets (README). */
export const defaultCjkSegmentation: CjkSegmentation = "words";

const questionWordPattern = new RegExp(chineseQuestionWords.join("|"), "u");

/** Overlapping character bigrams of a CJK run; a run of one character gives that character. */
export function cjkBigrams(run: string): string[] {
  const characters = Array.from(run);
  if (characters.length <= 1) return characters;
  const grams: string[] = [];
  for (let index = 1; index < characters.length; index += 1) grams.push(`${characters[index - 1]}${characters[index]}`);
  return grams;
}

/**
 * The dictionary words of a CJK run, in order, as jieba cuts it with its bundled dictionary
 * (HMM on for unknown words). The dictionary is built only once enough text was cut
 * (`CjkSegmenter`); the words do not depend on it.
 */
export function cjkWords(run: string): string[] {
  if (run === "") return [];
  return sharedCjkSegmenter.cut([run])[0] as string[];
}

/** `cjkWords` of each run, cut together (one small dictionary for all of them, see `CjkSegmenter`). */
export function cjkWordsOfRuns(runs: readonly string[]): string[][] {
  return sharedCjkSegmenter.cut(runs);
}

/**
 * The lexical terms of one normalised CJK run, by `segmentation`. `words`: the run's
 * `cjkWords`, when they were worked out already.
 */
export function segmentCjk(run: string, segmentation: CjkSegmentation = defaultCjkSegmentation, words?: readonly string[]): string[] {
  const terms: string[] = [];
  if (segmentation !== "words") addBigrams(run, terms);
  if (segmentation !== "bigrams") {
    const shortest = segmentation === "words" ? 1 : 3;
    for (const word of words ?? cjkWords(run)) {
      if (chineseStopWords.has(word)) continue;
      if (shortest > 1 && Array.from(word).length < shortest) continue;
      terms.push(word);
    }
  }
  return terms;
}

function addBigrams(run: string, terms: string[]): void {
  const parts = questionWordPattern.test(run) ? run.split(questionWordPattern) : [run];
  for (const part of parts) {
    if (part === "") continue;
    const grams = cjkBigrams(part);
    if (grams.length === 1 && chineseStopWords.has(part)) continue;
    terms.push(...grams);
  }
}
