import { InvalidFilterError } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { equalsFilter } from "./equals-filter.js";

describe("equalsFilter", () => {
  it("builds an $eq condition on one field", () => {
    expect(equalsFilter("category", "billing")).toEqual({ category: { $eq: "billing" } });
    expect(equalsFilter("year", 2024)).toEqual({ year: { $eq: 2024 } });
    expect(equalsFilter("public", true)).toEqual({ public: { $eq: true } });
  });

  it("refuses a field name that starts with $ or is empty", () => {
    expect(() => equalsFilter("$or", "x")).toThrow(InvalidFilterError);
    expect(() => equalsFilter("", "x")).toThrow(/may not be empty/);
  });
});
