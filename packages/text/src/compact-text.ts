import { CharacterKind, characterKind } from "./characters.js";

/**
 * Normalised text laid out for substring matching of CJK terms: punctuation becomes a space,
 * spaces collapse to one, and a space next to a CJK character is dropped (CJK writing has no
 * spaces, and `TiDB 集群` must meet `tidb集群`). Spaces between two words of other scripts stay,
 * so their boundaries can still be checked. `+` and `#` right after a word keep to it (`c++`).
 */
export function compactText(text: string): string {
  let result = "";
  let pendingSpace = false;
  let previous: CharacterKind = CharacterKind.Separator;
  for (const character of text) {
    let kind: CharacterKind = characterKind(character);
    if (kind === CharacterKind.Separator) {
      const keepsToWord = previous === CharacterKind.Word && !pendingSpace && (character === "+" || character === "#");
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
