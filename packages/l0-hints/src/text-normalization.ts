/**
 * Text handling shared by the index (entry terms) and the matcher (queries). Both sides go
 * through the same functions, so a term and a query agree on what a word is.
 */

/** Han, kana and Hangul, plus the iteration and prolonged-sound marks written inside them. */
const cjkCharacter = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005\u3006\u30fc]/u;
const wordCharacter = /[\p{L}\p{M}\p{N}]/u;
const cjkAnywhere = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** How one character takes part in matching. */
const CharacterKind = {
  /** Whitespace, punctuation, symbols: a boundary. */
  Separator: 0,
  /** A letter, mark or digit of a space-separated script (Latin, Cyrillic, Greek, ...). */
  Word: 1,
  /** A Chinese, Japanese or Korean character: written without spaces between words. */
  Cjk: 2,
} as const;
type CharacterKind = (typeof CharacterKind)[keyof typeof CharacterKind];

function characterKind(character: string): CharacterKind {
  const code = character.charCodeAt(0);
  if (code < 0x80) {
    const isDigit = code >= 0x30 && code <= 0x39;
    const isLower = code >= 0x61 && code <= 0x7a;
    const isUpper = code >= 0x41 && code <= 0x5a;
    return isDigit || isLower || isUpper ? CharacterKind.Word : CharacterKind.Separator;
  }
  if (cjkCharacter.test(character)) return CharacterKind.Cjk;
  return wordCharacter.test(character) ? CharacterKind.Word : CharacterKind.Separator;
}

/** `+` and `#` right after a word keep to it, so `C++` and `C#` stay words of their own. */
function isWordSuffix(character: string): boolean {
  return character === "+" || character === "#";
}

/** Unicode NFKC (folds full-width and compatibility forms) then lower case. */
export function normalizeText(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}

/** Whether normalised text holds any Chinese, Japanese or Korean character. */
export function containsCjk(text: string): boolean {
  return cjkAnywhere.test(text);
}

/** Whether a single character belongs to a space-separated script (so it needs a word boundary). */
export function isWordCharacter(character: string | undefined): boolean {
  return character !== undefined && characterKind(character) === CharacterKind.Word;
}

/**
 * The words of normalised text in a space-separated script, in order. CJK characters and
 * punctuation separate words: `如何配置api限流` gives `["api"]`, `node.js` gives
 * `["node", "js"]`, `c++` gives `["c++"]`.
 */
export function wordTokens(text: string): string[] {
  const tokens: string[] = [];
  let current = "";
  let inSuffix = false;
  for (const character of text) {
    const kind = characterKind(character);
    if (kind === CharacterKind.Word && !inSuffix) {
      current += character;
      continue;
    }
    if (current !== "" && isWordSuffix(character)) {
      current += character;
      inSuffix = true;
      continue;
    }
    if (current !== "") tokens.push(current);
    current = kind === CharacterKind.Word ? character : "";
    inSuffix = false;
  }
  if (current !== "") tokens.push(current);
  return tokens;
}

/**
 * Normalised text laid out for substring matching of CJK terms: punctuation becomes a space,
 * spaces collapse to one, and a space next to a CJK character is dropped (CJK writing has no
 * spaces, and `TiDB 集群` must meet `tidb集群`). Spaces between two words of other scripts stay,
 * so their boundaries can still be checked.
 */
export function compactText(text: string): string {
  let result = "";
  let pendingSpace = false;
  let previous: CharacterKind = CharacterKind.Separator;
  for (const character of text) {
    let kind: CharacterKind = characterKind(character);
    if (kind === CharacterKind.Separator) {
      const keepsToWord = previous === CharacterKind.Word && !pendingSpace && isWordSuffix(character);
      if (!keepsToWord) {
        if (result !== "") pendingSpace = true;
        continue;
      }
      kind = CharacterKind.Word;
    }
    if (pendingSpace && previous !== CharacterKind.Cjk && kind !== CharacterKind.Cjk) result += " ";
    pendingSpace = false;
    result += character;
    previous = kind;
  }
  return result;
}

/**
 * A light English plural folding, applied to both sides of a comparison: `webhooks` and
 * `webhook` meet, as do `policies`/`policy`, `classes`/`class`, `indexes`/`index` and
 * `cookies`/`cookie`. Short words and words ending in `ss` are left alone.
 */
export function stemToken(token: string): string {
  const length = token.length;
  if (length < 4) return token;
  if (token.endsWith("ie") && length >= 5) return `${token.slice(0, -2)}y`;
  if (!token.endsWith("s") || token.endsWith("ss")) return token;
  if (token.endsWith("sses") || token.endsWith("xes")) return token.slice(0, -2);
  if (token.endsWith("ies") && length >= 5) return `${token.slice(0, -3)}y`;
  const beforeLast = token[length - 2];
  if (beforeLast === undefined || !/\p{L}/u.test(beforeLast)) return token;
  return token.slice(0, -1);
}

/** Length in characters (code points), not UTF-16 units. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _character of text) count += 1;
  return count;
}
