// The embedding view as it was before issue 36 item 4 (commit deddf51), kept only to prove that
// the faster one gives the same terms (lexical-terms.reference.test.ts). Not part of the package.
import { cjkBigrams } from "../../segment-cjk.js";
import { referenceSplitWords as splitWords } from "./reference-split-words.js";

/** The terms of a text that the offline embedder looks at. */
interface EmbeddingTerms {
  /**
   * Words outside CJK scripts (letters, marks and digits), after NFKC and lower case, in text
   * order, unstemmed (the embedder looks them up in a word-vector table). `node.js` gives
   * `node`, `js`; `don't` gives `don`, `t`; `c++` gives `c`.
   */
  words: string[];
  /** For each word, whether it continues the phrase of the word before (no CJK, no sentence punctuation or line break between). */
  continuesPhrase: boolean[];
  /** Overlapping CJK character bigrams of each CJK run; a run of one character gives that character. */
  cjkGrams: string[];
  /** The CJK runs themselves, in text order (for a dictionary cut: `cjkWordsOfRuns`). */
  cjkRuns: string[];
}

/**
 * The embedding view: words with their phrase boundaries, and CJK bigrams. Words are not
 * split at case changes and keep no `+`/`#`, and CJK runs are not cut at question words:
 * this is the input the offline embedder's word table and method version were built on.
 */
export function referenceEmbeddingTerms(text: string): EmbeddingTerms {
  const words: string[] = [];
  const continuesPhrase: boolean[] = [];
  const cjkGrams: string[] = [];
  const cjkRuns: string[] = [];
  for (const token of splitWords(text, { wordSuffixes: false })) {
    if (token.kind === "cjk") {
      cjkRuns.push(token.text);
      for (const gram of cjkBigrams(token.text)) cjkGrams.push(gram);
    } else {
      words.push(token.text);
      continuesPhrase.push(token.continuesPhrase);
    }
  }
  return { words, continuesPhrase, cjkGrams, cjkRuns };
}
