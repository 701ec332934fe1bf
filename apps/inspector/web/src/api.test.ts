import { InvalidFilterError, parseFilterPairs } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { parseFilterLines } from "./api.js";

// The page's filter field is read by core's `parseFilterPairs`, the parser the CLI's
// `--filter` uses, so the page and `lookup-knowledge query --filter` send the same filter.
describe("issue 34: the page's filter lines", () => {
  it("issue 34: year=2024 matches the number or the string, as --filter year=2024 does", () => {
    expect(parseFilterLines("year=2024")).toEqual({ year: { $in: [2024, "2024"] } });
    expect(parseFilterLines("year=2024")).toEqual(parseFilterPairs(["year=2024"]));
  });

  it("issue 34: lines are the CLI's repeated --filter: trimmed, blank ones skipped, joined by $and", () => {
    const text = "  category = billing \r\n\nyear=2024\ndraft=false\ncategory=refunds\n";
    expect(parseFilterLines(text)).toEqual({
      $and: [
        { category: { $eq: "billing" } },
        { year: { $in: [2024, "2024"] } },
        { draft: { $eq: false } },
        { category: { $eq: "refunds" } },
      ],
    });
    expect(parseFilterLines(text)).toEqual(parseFilterPairs(["category = billing", "year=2024", "draft=false", "category=refunds"]));
    expect(parseFilterLines(" \n\n")).toBeUndefined();
  });

  it("issue 34: a bad line is refused as --filter refuses it, naming the line's number", () => {
    const refused = (() => {
      try {
        parseFilterLines("category=billing\n\nyear");
      } catch (error) {
        return error;
      }
    })();
    expect(InvalidFilterError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toBe('Invalid metadata filter at filter line 3: expected key=value, got "year"');
    expect(() => parseFilterLines("$or=1")).toThrow(/filter line 1: field names may not start with "\$"/);
    // An empty value is refused too (the page's parser before this one sent { year: "" }).
    expect(() => parseFilterLines("category=billing\nyear= ")).toThrow(
      'Invalid metadata filter at filter line 2: expected key=value, got "year="',
    );
  });
});
