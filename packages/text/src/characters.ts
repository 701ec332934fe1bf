/** Han, kana and Hangul, plus the iteration and prolonged-sound marks written inside them. */
const cjkCharacter = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005\u3006\u30fc]/u;
const cjkScript = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const letterMarkOrDigit = /[\p{L}\p{M}\p{N}]/u;

/** How one character takes part in analysis. */
export const CharacterKind = {
  /** Whitespace, punctuation, symbols: a boundary. */
  Separator: 0,
  /** A letter, mark or digit of a space-separated script (Latin, Cyrillic, Greek, ...). */
  Word: 1,
  /** A Chinese, Japanese or Korean character: written without spaces between words. */
  Cjk: 2,
} as const;
export type CharacterKind = (typeof CharacterKind)[keyof typeof CharacterKind];

/** The kind of one character (a code point given as a string). */
export function characterKind(character: string): CharacterKind {
  const code = character.charCodeAt(0);
  if (code < 0x80) {
    const isDigit = code >= 0x30 && code <= 0x39;
    const isLower = code >= 0x61 && code <= 0x7a;
    const isUpper = code >= 0x41 && code <= 0x5a;
    return isDigit || isLower || isUpper ? CharacterKind.Word : CharacterKind.Separator;
  }
  if (cjkCharacter.test(character)) return CharacterKind.Cjk;
  return letterMarkOrDigit.test(character) ? CharacterKind.Word : CharacterKind.Separator;
}

/** Whether text holds any Chinese, Japanese or Korean character. */
export function containsCjk(text: string): boolean {
  return cjkScript.test(text);
}

/** Whether a single character belongs to a space-separated script (so it needs a word boundary). */
export function isWordCharacter(character: string | undefined): boolean {
  return character !== undefined && characterKind(character) === CharacterKind.Word;
}

/** {@link isWordCharacter} for a code point. */
export function isWordCodePoint(codePoint: number | undefined): boolean {
  return codePoint !== undefined && characterKind(String.fromCodePoint(codePoint)) === CharacterKind.Word;
}

/** Length in characters (code points), not UTF-16 units. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _character of text) count += 1;
  return count;
}
