import { characterKind } from "./characters.js";
import type { CharacterKind } from "./characters.js";

/** `characterKind` of each UTF-16 code unit, worked out on first sight (255: not yet). */
const kinds = new Uint8Array(0x10000).fill(255);

/**
 * `characterKind` of a character held in one UTF-16 code unit (anything but half of a
 * surrogate pair; a lone surrogate is a separator), remembered per code unit: the word
 * splitters ask it for every character outside ASCII, and `characterKind` runs regular
 * expressions on a one-character string.
 */
export function codeUnitKind(code: number): CharacterKind {
  const known = kinds[code] as number;
  if (known !== 255) return known as CharacterKind;
  const kind = characterKind(String.fromCharCode(code));
  kinds[code] = kind;
  return kind;
}
