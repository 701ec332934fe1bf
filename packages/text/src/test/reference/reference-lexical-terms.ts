// The lexical view as it was before issue 36 item 4 (commit deddf51), kept only to prove that
// the faster one gives the same terms (lexical-terms.reference.test.ts). Not part of the
// package: do not change it, except to follow a change of analyzerVersion.
import { cjkWordsOfRuns, defaultCjkSegmentation, segmentCjk } from "../../segment-cjk.js";
import type { CjkSegmentation } from "../../segment-cjk.js";
import { referenceSplitWords as splitWords } from "./reference-split-words.js";
import { stemmer } from "stemmer";
import { englishStopWords } from "../../stop-words.js";

interface LexicalTermsOptions {
  /** How CJK runs become terms; default `defaultCjkSegmentation`. */
  cjk?: CjkSegmentation;
}

/** Words longer than this are dropped: they are hashes, base64 or minified code, not words. */
const maximumWordLength = 64;

/**
 * The lexical view, for the BM25 index and sparse vectors: the terms of a text, in order
 * (a term repeats as often as it occurs). Words are split at punctuation and case changes
 * (`rateLimit`, `rate_limit` and `rate-limit` all give `rate`, `limit`; the joined compound
 * is not added: it measured worse, see the README), English stop words are dropped and
 * words of ASCII letters Porter-stemmed; words holding digits or other scripts are kept as
 * they are. CJK runs are segmented by `options.cjk` (`segmentCjk`). Mixed text
 * ("TiDB 的 SQL 优化") gets both kinds of terms.
 */
export function referenceLexicalTerms(text: string, options: LexicalTermsOptions = {}): string[] {
  const cjk = options.cjk ?? defaultCjkSegmentation;
  const terms: string[] = [];
  const tokens = splitWords(text, { caseChanges: true });
  // The text's CJK runs are cut together (one small dictionary for all of them).
  const runs = cjk === "bigrams" ? [] : tokens.filter((token) => token.kind === "cjk").map((token) => token.text);
  const words = runs.length === 0 ? [] : cjkWordsOfRuns(runs);
  let run = 0;
  for (const token of tokens) {
    if (token.kind === "cjk") {
      for (const term of segmentCjk(token.text, cjk, cjk === "bigrams" ? undefined : words[run++])) terms.push(term);
      continue;
    }
    const word = token.text;
    if (word.length > maximumWordLength || englishStopWords.has(word)) continue;
    terms.push(/^[a-z]+$/.test(word) ? stemmer(word) : word);
  }
  return terms;
}
