import { describe, expect, it } from "vitest";
import { InvalidFilterError } from "./errors.js";
import { parseFilterPairs } from "./parse-filter-pairs.js";

describe("parseFilterPairs: key=value pairs as the CLI and the inspector's page read them", () => {
  it.each([
    ["category=billing", { category: { $eq: "billing" } }],
    ["year=2024", { year: { $in: [2024, "2024"] } }],
    ["delta=-1.5", { delta: { $in: [-1.5, "-1.5"] } }],
    ["code=007", { code: { $in: [7, "007"] } }],
    ["draft=true", { draft: { $eq: true } }],
    ["draft=false", { draft: { $eq: false } }],
    ["draft=TRUE", { draft: { $eq: "TRUE" } }],
    ["version=1.2.3", { version: { $eq: "1.2.3" } }],
    ["year=2024a", { year: { $eq: "2024a" } }],
    ["  team lead =  Ada Lovelace ", { "team lead": { $eq: "Ada Lovelace" } }],
    ["expr=a=b", { expr: { $eq: "a=b" } }],
  ])("issue 34: %s reads as %o", (pair, expected) => {
    expect(parseFilterPairs([pair])).toEqual(expected);
  });

  it("issue 34: several pairs are joined by $and, in order; a key given twice must match both; none is no filter", () => {
    expect(parseFilterPairs(["category=billing", "year=2024", "category=refunds"])).toEqual({
      $and: [{ category: { $eq: "billing" } }, { year: { $in: [2024, "2024"] } }, { category: { $eq: "refunds" } }],
    });
    expect(parseFilterPairs([])).toBeUndefined();
  });

  it("issue 34: a pair without a key or a value, or a key starting with $, is refused naming the pair's place", () => {
    for (const [pair, reason] of [
      ["category", /filter\[1\]: expected key=value, got "category"/],
      ["=billing", /filter\[1\]: expected key=value/],
      ["category=  ", /filter\[1\]: expected key=value/],
      ["$or=1", /filter\[1\]: field names may not start with "\$" \(got "\$or"\)/],
      ["$and=x", /filter\[1\]: field names may not start with "\$"/],
    ] as const) {
      const refused = (() => {
        try {
          parseFilterPairs(["ok=1", pair]);
        } catch (error) {
          return error;
        }
      })();
      expect(InvalidFilterError.isInstance(refused)).toBe(true);
      expect((refused as Error).message).toMatch(reason);
    }
    expect(() => parseFilterPairs(["category"], (index) => `--filter[${index}]`)).toThrow(
      'Invalid metadata filter at --filter[0]: expected key=value, got "category"',
    );
  });
});
