import { describe, expect, it } from "vitest";
import { matchesFilter } from "./matches-filter.js";
import type { MetadataFilter } from "@lookup-knowledge/core";

const chunk = {
  tenant: "acme",
  category: "billing",
  year: 2024,
  rank: 3,
  yearText: "2024",
  public: true,
  tags: ["refund", "invoice"],
  scores: [1, 5],
  nothing: null,
};

describe("matchesFilter", () => {
  it("matches everything without a filter or with an empty one", () => {
    expect(matchesFilter(chunk, undefined)).toBe(true);
    expect(matchesFilter(chunk, {})).toBe(true);
  });

  it("treats a bare value as $eq", () => {
    expect(matchesFilter(chunk, { tenant: "acme" })).toBe(true);
    expect(matchesFilter(chunk, { tenant: "other" })).toBe(false);
  });

  it("$eq and $ne compare strictly by type", () => {
    expect(matchesFilter(chunk, { year: { $eq: 2024 } })).toBe(true);
    expect(matchesFilter(chunk, { year: { $eq: "2024" } })).toBe(false);
    expect(matchesFilter(chunk, { yearText: { $eq: 2024 } })).toBe(false);
    expect(matchesFilter(chunk, { public: { $eq: true } })).toBe(true);
    expect(matchesFilter(chunk, { public: { $eq: "true" } })).toBe(false);
    expect(matchesFilter(chunk, { tenant: { $ne: "acme" } })).toBe(false);
    expect(matchesFilter(chunk, { tenant: { $ne: "other" } })).toBe(true);
  });

  it("range operators compare numbers with numbers only", () => {
    expect(matchesFilter(chunk, { year: { $gt: 2023 } })).toBe(true);
    expect(matchesFilter(chunk, { year: { $gt: 2024 } })).toBe(false);
    expect(matchesFilter(chunk, { year: { $gte: 2024 } })).toBe(true);
    expect(matchesFilter(chunk, { year: { $lt: 2025 } })).toBe(true);
    expect(matchesFilter(chunk, { year: { $lt: 2024 } })).toBe(false);
    expect(matchesFilter(chunk, { year: { $lte: 2024 } })).toBe(true);
    expect(matchesFilter(chunk, { yearText: { $gt: 2000 } })).toBe(false);
    expect(matchesFilter(chunk, { year: { $gte: 2020, $lt: 2030 } })).toBe(true);
    expect(matchesFilter(chunk, { year: { $gte: 2020, $lt: 2022 } })).toBe(false);
  });

  it("$in and $nin test membership", () => {
    expect(matchesFilter(chunk, { category: { $in: ["billing", "shipping"] } })).toBe(true);
    expect(matchesFilter(chunk, { category: { $in: ["shipping"] } })).toBe(false);
    expect(matchesFilter(chunk, { category: { $in: [] } })).toBe(false);
    expect(matchesFilter(chunk, { rank: { $in: ["3"] } })).toBe(false);
    expect(matchesFilter(chunk, { category: { $nin: ["shipping"] } })).toBe(true);
    expect(matchesFilter(chunk, { category: { $nin: ["billing"] } })).toBe(false);
  });

  it("$exists tells present from missing (null counts as missing)", () => {
    expect(matchesFilter(chunk, { tenant: { $exists: true } })).toBe(true);
    expect(matchesFilter(chunk, { tenant: { $exists: false } })).toBe(false);
    expect(matchesFilter(chunk, { absent: { $exists: false } })).toBe(true);
    expect(matchesFilter(chunk, { nothing: { $exists: true } })).toBe(false);
  });

  it("a missing field fails $eq, $in and ranges, and passes $ne and $nin", () => {
    for (const field of ["absent", "nothing"]) {
      expect(matchesFilter(chunk, { [field]: "x" })).toBe(false);
      expect(matchesFilter(chunk, { [field]: { $eq: "x" } })).toBe(false);
      expect(matchesFilter(chunk, { [field]: { $in: ["x"] } })).toBe(false);
      expect(matchesFilter(chunk, { [field]: { $gt: 0 } })).toBe(false);
      expect(matchesFilter(chunk, { [field]: { $gte: 0 } })).toBe(false);
      expect(matchesFilter(chunk, { [field]: { $lt: 0 } })).toBe(false);
      expect(matchesFilter(chunk, { [field]: { $lte: 0 } })).toBe(false);
      expect(matchesFilter(chunk, { [field]: { $ne: "x" } })).toBe(true);
      expect(matchesFilter(chunk, { [field]: { $nin: ["x"] } })).toBe(true);
    }
  });

  it("does not read inherited properties as metadata", () => {
    expect(matchesFilter({}, { toString: { $exists: true } })).toBe(false);
  });

  it("array-valued metadata matches $eq and $in when any element matches", () => {
    expect(matchesFilter(chunk, { tags: "refund" })).toBe(true);
    expect(matchesFilter(chunk, { tags: { $eq: "invoice" } })).toBe(true);
    expect(matchesFilter(chunk, { tags: { $eq: "shipping" } })).toBe(false);
    expect(matchesFilter(chunk, { tags: { $in: ["shipping", "invoice"] } })).toBe(true);
    expect(matchesFilter(chunk, { tags: { $ne: "refund" } })).toBe(false);
    expect(matchesFilter(chunk, { tags: { $ne: "shipping" } })).toBe(true);
    expect(matchesFilter(chunk, { tags: { $nin: ["invoice"] } })).toBe(false);
    expect(matchesFilter(chunk, { scores: { $eq: 5 } })).toBe(true);
    expect(matchesFilter(chunk, { scores: { $gt: 0 } })).toBe(false);
  });

  it("joins top-level conditions with AND", () => {
    expect(matchesFilter(chunk, { tenant: "acme", category: "billing" })).toBe(true);
    expect(matchesFilter(chunk, { tenant: "acme", category: "shipping" })).toBe(false);
  });

  it("$and needs every part, $or needs one, and they nest", () => {
    expect(matchesFilter(chunk, { $and: [{ tenant: "acme" }, { year: { $gt: 2000 } }] })).toBe(true);
    expect(matchesFilter(chunk, { $and: [{ tenant: "acme" }, { year: { $gt: 3000 } }] })).toBe(false);
    expect(matchesFilter(chunk, { $or: [{ tenant: "other" }, { category: "billing" }] })).toBe(true);
    expect(matchesFilter(chunk, { $or: [{ tenant: "other" }, { category: "shipping" }] })).toBe(false);
    expect(matchesFilter(chunk, { $or: [] })).toBe(false);
    expect(matchesFilter(chunk, { $and: [] })).toBe(true);
    const nested = {
      tenant: "acme",
      $or: [{ $and: [{ public: true }, { tags: "refund" }] }, { category: "legal" }],
    };
    expect(matchesFilter(chunk, nested)).toBe(true);
    expect(matchesFilter({ ...chunk, public: false }, nested)).toBe(false);
    expect(matchesFilter({ ...chunk, public: false, category: "legal" }, nested)).toBe(true);
  });

  it("ignores filter keys that hold undefined", () => {
    expect(matchesFilter(chunk, { tenant: undefined, category: "billing" })).toBe(true);
    // A JavaScript caller may leave an operator undefined.
    expect(matchesFilter(chunk, { tenant: { $eq: undefined, $ne: "other" } } as unknown as MetadataFilter)).toBe(true);
  });

  it("never satisfies an operator it does not know", () => {
    expect(matchesFilter(chunk, { tenant: { $regex: "ac" } as never })).toBe(false);
  });
});
