import type { Lexicon } from "./lexicon.js";

const cjkRun = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{3,}$/u;

/**
 * A query's terms with every CJK word the index has never seen replaced by the known
 * words it is made of. The segmenter cuts a phrase by its context, so a query can hold a
 * word (开发票, "issue an invoice") where the documents were cut into its parts (开, 发票):
 * without this the lexical search misses them and the answerability signals count the
 * word as unseen. Parts are found left to right, longest known word of two or more
 * characters first; characters no known word covers are dropped, and a word with no known
 * part stays as it is (still unseen). A part is at most `maxPieceCharacters` (8)
 * characters long: only the pieces of two to eight characters starting at each position
 * are looked up, so the work grows linearly with the length of the run (a run of 5,000
 * unseen characters takes at most about 35,000 lookups, not millions of slices). Known
 * words longer than eight characters are therefore never found as parts.
 */
export function withUnseenCjkPieces(terms: readonly string[], lexicon: Pick<Lexicon, "find">): string[] {
  const result: string[] = [];
  for (const term of terms) {
    if (!cjkRun.test(term) || lexicon.find(term) >= 0) {
      result.push(term);
      continue;
    }
    const pieces = knownPieces([...term], lexicon);
    if (pieces.length === 0) result.push(term);
    else result.push(...pieces);
  }
  return result;
}

/** The longest part `withUnseenCjkPieces` looks up, in characters (code points). */
export const maxPieceCharacters = 8;

function knownPieces(characters: readonly string[], lexicon: Pick<Lexicon, "find">): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < characters.length - 1) {
    let end = characters.length;
    // The whole run is unseen, so a piece is always shorter than it.
    if (start === 0) end -= 1;
    end = Math.min(end, start + maxPieceCharacters);
    let found = false;
    for (; end - start >= 2; end -= 1) {
      const piece = characters.slice(start, end).join("");
      if (lexicon.find(piece) >= 0) {
        pieces.push(piece);
        start = end;
        found = true;
        break;
      }
    }
    if (!found) start += 1;
  }
  return pieces;
}
