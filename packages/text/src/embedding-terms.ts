import { CharacterKind, characterKind } from "./characters.js";
import { codeUnitKind } from "./code-unit-kind.js";
import { cjkBigrams } from "./segment-cjk.js";

/** The terms of a text that the offline embedder looks at. */
export interface EmbeddingTerms {
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

const asciiOnly = /^[\u0000-\u007f]*$/;
/** The kind of each ASCII character: letters and digits are word characters, the rest separate. */
const asciiKinds = Uint8Array.from({ length: 128 }, (_, code) => characterKind(String.fromCharCode(code)));

/**
 * The embedding view: words with their phrase boundaries, and CJK bigrams. Words are not
 * split at case changes and keep no `+`/`#`, and CJK runs are not cut at question words:
 * this is the input the offline embedder's word table and method version were built on.
 *
 * It splits words exactly as `splitWords(text, { wordSuffixes: false })` does, in one pass
 * that makes no token objects, lower-casing only words that have an upper-case letter or a
 * character outside ASCII; a test holds it to the implementation it replaced. (Handing out
 * each repeated ASCII word as one string from a `TermTable` measured slower than cutting it
 * out again: README, "Cost".)
 */
export function embeddingTerms(text: string): EmbeddingTerms {
  const words: string[] = [];
  const continuesPhrase: boolean[] = [];
  const cjkGrams: string[] = [];
  const cjkRuns: string[] = [];
  // NFKC leaves ASCII as it is.
  const normalized = asciiOnly.test(text) ? text : text.normalize("NFKC");
  const length = normalized.length;
  let wordStart = -1;
  let wordEnd = -1;
  /** Whether the word being read may change in lower case: it has an upper-case letter or a character outside ASCII. */
  let wordHasCase = false;
  let runStart = -1;
  let runEnd = -1;
  let phraseOpen = false;
  const endWord = (): void => {
    const word = normalized.slice(wordStart, wordEnd);
    words.push(wordHasCase ? word.toLowerCase() : word);
    continuesPhrase.push(phraseOpen);
    phraseOpen = true;
    wordStart = -1;
  };
  const endRun = (): void => {
    // No character of the CJK scripts has a case (a test checks every one).
    const run = normalized.slice(runStart, runEnd);
    cjkRuns.push(run);
    for (const gram of cjkBigrams(run)) cjkGrams.push(gram);
    phraseOpen = false;
    runStart = -1;
  };
  for (let index = 0; index < length; ) {
    const code = normalized.charCodeAt(index);
    let width = 1;
    let kind: CharacterKind;
    if (code < 0x80) kind = asciiKinds[code] as CharacterKind;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < length && isLowSurrogate(normalized.charCodeAt(index + 1))) {
      width = 2;
      kind = characterKind(normalized.slice(index, index + 2));
    } else kind = codeUnitKind(code);
    if (kind === CharacterKind.Word) {
      if (wordStart < 0) {
        if (runStart >= 0) endRun();
        wordStart = index;
        wordHasCase = false;
      }
      if ((code >= 0x41 && code <= 0x5a) || code >= 0x80) wordHasCase = true;
      index += width;
      wordEnd = index;
      continue;
    }
    if (kind === CharacterKind.Cjk) {
      if (wordStart >= 0) endWord();
      if (runStart < 0) runStart = index;
      index += width;
      runEnd = index;
      continue;
    }
    if (wordStart >= 0) endWord();
    if (runStart >= 0) endRun();
    if (code === 0x2e || code === 0x21 || code === 0x3f || code === 0x3b || code === 0x3a || code === 0x0a || code === 0x3002) {
      // . ! ? ; : line break and the ideographic full stop end a phrase.
      phraseOpen = false;
    }
    index += width;
  }
  if (wordStart >= 0) endWord();
  if (runStart >= 0) endRun();
  return { words, continuesPhrase, cjkGrams, cjkRuns };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
