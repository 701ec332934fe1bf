import { CharacterKind, characterKind, englishStopWords, wordTokens } from "@lookup-knowledge/text";

/** CJK characters a term needs to name something on its own (`慢查询`, not `安全`). */
export const minimumDistinctiveCjkCharacters = 3;

const asciiOnly = /^[\u0000-\u007f]*$/;
const digit = /\p{N}/u;
/** `-`, `_`, `.` or `/` between two letters or digits: `limit-req`, `long_query_time`, `node.js`, `v1/users`. */
const innerPunctuation = /[\p{L}\p{N}][-_./][\p{L}\p{N}]/u;
/** A capital after a letter: inner capitals (`OpenTelemetry`, `limitReq`, `OAuth`) or all capitals (`JWT`). */
const innerCapital = /\p{L}\p{Lu}/u;

/**
 * Whether a term, as an entry spells it, says by its shape alone which entry is meant, so
 * that its entry's domain may become a hint and a filter (R7). Built from the term only, with
 * no word lists:
 * - in spaced scripts, a term of two or more words (English stop words not counted) is
 *   distinctive ("Load Balance", "rate limit"); a term of one word only when it looks like
 *   an identifier (`limit-req`, `OAuth2`, `JWT`, `OpenTelemetry`, `node.js`), never an
 *   ordinary word ("Security", "Shell", "Kong");
 * - a term with CJK characters needs three of them (`慢查询`, not `限流`) or a Latin part that
 *   looks like an identifier (`TiDB 集群`).
 * Whether a distinctive term is also common in a corpus is the caller's to say
 * (`L0IndexOptions.isCommonTerm`).
 */
export function isDistinctiveTerm(term: string): boolean {
  // NFKC leaves ASCII as it is, and ASCII holds no CJK character.
  const ascii = asciiOnly.test(term);
  const text = ascii ? term : term.normalize("NFKC");
  let cjkCharacters = 0;
  let latin = text;
  if (!ascii) {
    latin = "";
    for (const character of text) {
      if (characterKind(character) === CharacterKind.Cjk) {
        cjkCharacters += 1;
        latin += " ";
      } else {
        latin += character;
      }
    }
  }
  if (cjkCharacters >= minimumDistinctiveCjkCharacters) return true;
  const chunks = latin.split(/\s+/u).filter((chunk) => chunk !== "" && !englishStopWords.has(chunk.toLowerCase()));
  if (chunks.some(looksLikeIdentifier)) return true;
  if (cjkCharacters > 0) return false;
  return wordTokens(text.toLowerCase()).filter((word) => !englishStopWords.has(word)).length >= 2;
}

/** A word written like a name in code or a product: a digit, inner punctuation, inner or all capitals. */
function looksLikeIdentifier(word: string): boolean {
  return digit.test(word) || innerPunctuation.test(word) || innerCapital.test(word);
}
