import { describe, expect, it } from "vitest";
import { CharacterKind, characterKind } from "./characters.js";
import { codeUnitKind } from "./code-unit-kind.js";

describe("codeUnitKind", () => {
  it("issue 36 item 4: gives characterKind of every code unit, asked twice (worked out, then remembered)", () => {
    for (let round = 0; round < 2; round += 1) {
      const different: number[] = [];
      for (let code = 0; code < 0x10000; code += 1)
        if (codeUnitKind(code) !== characterKind(String.fromCharCode(code))) different.push(code);
      expect(different).toEqual([]);
    }
  });

  it("issue 36 item 4: no CJK character has a case, so lexicalTerms need not lower-case CJK runs", () => {
    const cased: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const character = String.fromCodePoint(codePoint);
      if (characterKind(character) === CharacterKind.Cjk && character.toLowerCase() !== character) cased.push(character);
    }
    expect(cased).toEqual([]);
  });
});
