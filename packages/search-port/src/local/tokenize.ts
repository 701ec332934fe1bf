import { stemmer } from "stemmer";
import { chineseQuestionWords, chineseStopWords, englishStopWords } from "./stop-words.js";

/**
 * How runs of Chinese, Japanese or Korean characters become terms:
 * - `"segmenter"`: words found by `Intl.Segmenter` (ICU's dictionary-based word breaking);
 * - `"bigrams"`: overlapping pairs of characters (a lone character is its own term), with
 *   runs first cut at Chinese question words and particles (`chineseQuestionWords`).
 *
 * The default is the one that measured better on the Chinese self-retrieval check in
 * `bench/cjk-tokenisation.mjs` (see the README).
 */
export type CjkSegmentation = "segmenter" | "bigrams";

/** The CJK segmentation the port uses. */
export const defaultCjkSegmentation: CjkSegmentation = "bigrams";

/** Words longer than this are dropped: they are hashes, base64 or minified code, not words. */
const maximumWordLength = 64;

const wordPattern = /[\p{L}\p{M}\p{N}]+/gu;
const cjkRunPattern = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005\u30fc]+/gu;
const asciiLetters = /^[a-z]+$/;
const hasCjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

const questionWordPattern = new RegExp(chineseQuestionWords.join("|"), "u");

const stemCache = new Map<string, string>();
const stemCacheLimit = 200_000;

let segmenter: Intl.Segmenter | undefined;

/**
 * The index terms of a text, in order (a term repeats as often as it occurs).
 *
 * The text is NFKC-normalised and lower-cased, then split into runs of letters, marks and
 * digits. Runs of CJK characters are segmented (see {@link CjkSegmentation}); the rest
 * are words: English stop words are dropped, words of ASCII letters are Porter-stemmed
 * (`stemmer`), words holding digits or other scripts are kept as they are. Mixed text
 * ("TiDB 的 SQL 优化") gets both kinds of terms.
 */
export function tokenize(text: string, cjk: CjkSegmentation = defaultCjkSegmentation): string[] {
  const terms: string[] = [];
  const normalized = text.normalize("NFKC").toLowerCase();
  for (const [word] of normalized.matchAll(wordPattern)) {
    if (!hasCjk.test(word)) {
      addWord(word, terms);
      continue;
    }
    let last = 0;
    for (const match of word.matchAll(cjkRunPattern)) {
      if (match.index > last) addWord(word.slice(last, match.index), terms);
      if (cjk === "bigrams") addBigrams(match[0], terms);
      else addSegments(match[0], terms);
      last = match.index + match[0].length;
    }
    if (last < word.length) addWord(word.slice(last), terms);
  }
  return terms;
}

function addWord(word: string, terms: string[]): void {
  if (word.length > maximumWordLength) return;
  if (!asciiLetters.test(word)) {
    terms.push(word);
    return;
  }
  if (englishStopWords.has(word)) return;
  terms.push(stem(word));
}

function stem(word: string): string {
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  const stemmed = stemmer(word);
  if (stemCache.size >= stemCacheLimit) stemCache.clear();
  stemCache.set(word, stemmed);
  return stemmed;
}

function addBigrams(run: string, terms: string[]): void {
  if (questionWordPattern.test(run)) {
    for (const part of run.split(questionWordPattern)) if (part !== "") addRunBigrams(part, terms);
    return;
  }
  addRunBigrams(run, terms);
}

function addRunBigrams(run: string, terms: string[]): void {
  const characters = Array.from(run);
  if (characters.length === 1) {
    if (!chineseStopWords.has(run)) terms.push(run);
    return;
  }
  for (let index = 0; index + 1 < characters.length; index += 1) {
    terms.push(`${characters[index]}${characters[index + 1]}`);
  }
}

function addSegments(run: string, terms: string[]): void {
  segmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
  for (const segment of segmenter.segment(run)) {
    if (segment.isWordLike === false) continue;
    if (chineseStopWords.has(segment.segment)) continue;
    terms.push(segment.segment);
  }
}
