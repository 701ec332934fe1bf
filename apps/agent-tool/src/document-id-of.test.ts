import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { documentIdOf, evidenceKeyOf } from "./document-id-of.js";
import { escapeKnowledgeText } from "./escape-knowledge-text.js";

// Issue 33: ids were escaped like other text (runs of spaces collapsed, quotes changed, format
// characters dropped), so 15 of 28 ids a lookup returned on a hostile base could not be fetched.
const hostile = [
  "billing/refunds#chunk-0",
  "指南/安装#chunk-2",
  "a  b\tc#chunk-1",
  'say "hi"/\uFF02x\uFF02#chunk-0',
  "zero\u200Bwidth\u00ADsoft\u202Ebidi#chunk-3",
  "tag<evidence>\uFE64\uFF1C#chunk-0",
  "looks\u2039like\u276Eless\u226E#chunk-0",
  "amp&amp;lt;\uFF06#chunk-0",
  "100%/done%41#chunk-0",
  "line\nbreak\u2028sep\u2029#chunk-0",
  "lone\uD800surrogate\uDC00#chunk-0",
  "vector:abc def",
  "法律/《Evidence Act》〈/evidence〉#chunk-0",
];

describe("documentIdOf and evidenceKeyOf", () => {
  it("give hostile keys back exactly, and their ids pass the escaping of every place unchanged", () => {
    for (const key of hostile) {
      const id = documentIdOf(key);
      expect(evidenceKeyOf(id)).toBe(key);
      expect(escapeKnowledgeText(id, "attribute")).toBe(id);
      expect(escapeKnowledgeText(id, "line")).toBe(id);
      expect(id).not.toMatch(/[<"&\s]/u);
    }
  });

  it("leave an ordinary key as it is, and refuse a broken encoding", () => {
    expect(documentIdOf("billing/refunds#chunk-0")).toBe("billing/refunds#chunk-0");
    expect(documentIdOf("指南/安装#chunk-2")).toBe("指南/安装#chunk-2");
    expect(documentIdOf("a b#chunk-1")).toBe("a%20b#chunk-1");
    for (const broken of ["a%2#chunk-0", "a%ZZ#chunk-0", "a%FF#chunk-0", "50%#chunk-0"]) expect(evidenceKeyOf(broken)).toBeUndefined();
    // A raw key is not an id: it is not read as the key its escapes would spell.
    expect(evidenceKeyOf("a%41#chunk-0")).toBeUndefined();
    expect(evidenceKeyOf("a b#chunk-0")).toBeUndefined();
    expect(evidenceKeyOf("billing/refunds#chunk-0")).toBe("billing/refunds#chunk-0");
  });

  it("round-trips any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (key) => {
        const id = documentIdOf(key);
        expect(evidenceKeyOf(id)).toBe(key);
        expect(escapeKnowledgeText(id, "attribute")).toBe(id);
      }),
    );
  });
});
