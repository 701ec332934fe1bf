import type { LexicalOutput } from "./lexical-output.js";
import { stemWord, stemWordUncached } from "./stem-word.js";
import { englishStopWords } from "./stop-words.js";
import { TermTable, wordHash } from "./term-table.js";

/** Words longer than this are dropped: they are hashes, base64 or minified code, not words. */
const maximumWordLength = 64;
/** Where a word's case changes (for words holding a character outside ASCII; ASCII words are split in `addWordTerms`). */
const caseChange = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{N})(?=\p{Lu}\p{Ll})/u;

/** What a word found by `lexicalTerms` holds: bit flags. */
export const WordHolds = {
  /** Lower-case ASCII letters, digits, `+` and `#` only. */
  Plain: 0,
  /** An upper-case ASCII letter. */
  Upper: 1,
  /** A character outside ASCII. */
  Other: 2,
} as const;

/** The lexical term of each lower-case ASCII word, or `null` when it is a stop word. */
const asciiTerms = new TermTable((word) => (englishStopWords.has(word) ? null : stemWordUncached(word)));

/**
 * Adds the lexical terms of one word of `source` (`source.slice(start, end)`, NFKC already)
 * to `output`: its pieces split at case changes, lower case, stop words and pieces over 64
 * characters out, Porter-stemmed when of ASCII letters. `holds`: what `WordHolds` the word
 * has; `hash`: the word's `wordHash`, worked out as it was read (used for a word of ASCII not
 * split at a case change). Words of ASCII (nearly all of them) are looked up in a cache by
 * their slice, without cutting out a string (`LexicalOutput.addTableWord`); others take the
 * general way.
 */
export function addWordTerms(output: LexicalOutput, source: string, start: number, end: number, holds: number, hash: number): void {
  if (holds === WordHolds.Plain) {
    if (end - start > maximumWordLength) return;
    output.addTableWord(asciiTerms, source, start, end, hash, true);
    return;
  }
  if ((holds & WordHolds.Other) !== 0) {
    for (const piece of source.slice(start, end).split(caseChange)) {
      const lower = piece.toLowerCase();
      if (lower.length > maximumWordLength || englishStopWords.has(lower)) continue;
      output.addTerm(stemWord(lower));
    }
    return;
  }
  // ASCII with an upper-case letter: the case changes of `caseChange`, where \p{Ll} is a-z,
  // \p{Lu} is A-Z and \p{N} is 0-9. A piece starts at an upper-case letter after a lower-case
  // one, or after an upper-case letter or a digit when a lower-case letter follows it.
  let pieceStart = start;
  for (let index = start + 1; index < end; index += 1) {
    if (!isUpper(source.charCodeAt(index))) continue;
    const before = source.charCodeAt(index - 1);
    const startsPiece =
      isLower(before) || ((isUpper(before) || isDigit(before)) && index + 1 < end && isLower(source.charCodeAt(index + 1)));
    if (!startsPiece) continue;
    addAsciiPiece(output, source, pieceStart, index);
    pieceStart = index;
  }
  // A word not split (`The`, `RNA`) is one piece, whose hash is the word's.
  if (pieceStart === start) {
    if (end - start <= maximumWordLength) output.addTableWord(asciiTerms, source, start, end, hash, false);
  } else addAsciiPiece(output, source, pieceStart, end);
}

/** A piece of a word with an upper-case letter. */
function addAsciiPiece(output: LexicalOutput, source: string, start: number, end: number): void {
  if (end - start > maximumWordLength) return;
  output.addTableWord(asciiTerms, source, start, end, wordHash(source, start, end), false);
}

function isUpper(code: number): boolean {
  return code >= 0x41 && code <= 0x5a;
}

function isLower(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}
