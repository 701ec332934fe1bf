import { describe, expect, it } from "vitest";
import { candidatesOf, hit } from "../test/fixtures.js";
import { capPerDocument } from "./cap-per-document.js";

const keys = (items: Array<{ evidenceKey: string }>) => items.map((item) => item.evidenceKey);

describe("capPerDocument", () => {
  const ranked = candidatesOf([hit("a", 0), hit("a", 1), hit("b", 0), hit("a", 2), hit("b", 1), hit("b", 2), hit("c", 0)]);

  it("R16: keeps at most 2 chunks per document, the best ranked, in input order", () => {
    const { kept, dropped } = capPerDocument(ranked, 2);
    expect(keys(kept)).toEqual(["a#chunk-0", "a#chunk-1", "b#chunk-0", "b#chunk-1", "c#chunk-0"]);
    expect(keys(dropped)).toEqual(["a#chunk-2", "b#chunk-2"]);
  });

  it("R16: with a cap of 1 keeps only each document's best chunk", () => {
    const { kept, dropped } = capPerDocument(ranked, 1);
    expect(keys(kept)).toEqual(["a#chunk-0", "b#chunk-0", "c#chunk-0"]);
    expect(dropped).toHaveLength(4);
  });

  it("R16: candidates without a docId are each their own document", () => {
    const items = [{ evidenceKey: "vector:1" }, { evidenceKey: "vector:2" }, { evidenceKey: "vector:3" }];
    expect(capPerDocument(items, 1).kept).toEqual(items);
  });

  it("refuses a cap that is not a whole number of at least 1", () => {
    expect(() => capPerDocument(ranked, 0)).toThrow(/maxChunksPerDocument must be a whole number of at least 1, got 0/);
    expect(() => capPerDocument(ranked, 1.5)).toThrow(/got 1.5/);
  });
});
