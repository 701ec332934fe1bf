import { describe, expect, it } from "vitest";
import { toPineconeFilter } from "./to-pinecone-filter.js";

describe("toPineconeFilter", () => {
  it("R13: passes equality and ranges natively, with explicit $eq", () => {
    expect(toPineconeFilter({ category: "billing", year: { $gte: 2020 } })).toEqual({
      $and: [{ category: { $eq: "billing" } }, { year: { $gte: 2020 } }],
    });
    expect(toPineconeFilter({ year: { $gt: 1, $lt: 9 } })).toEqual({ $and: [{ year: { $gt: 1 } }, { year: { $lt: 9 } }] });
  });

  it("R13: makes $ne and $nin also match records without the field, as the reference does", () => {
    expect(toPineconeFilter({ tenant: { $ne: "acme" } })).toEqual({
      $or: [{ tenant: { $ne: "acme" } }, { tenant: { $exists: false } }],
    });
    expect(toPineconeFilter({ tag: { $nin: ["a", "b"] } })).toEqual({
      $or: [{ tag: { $nin: ["a", "b"] } }, { tag: { $exists: false } }],
    });
  });

  it("R13: turns booleans in $in / $nin into $eq / $ne, which Pinecone accepts", () => {
    expect(toPineconeFilter({ flag: { $in: [true, "yes"] } })).toEqual({ $or: [{ flag: { $in: ["yes"] } }, { flag: { $eq: true } }] });
    expect(toPineconeFilter({ flag: { $nin: [false] } })).toEqual({ $or: [{ flag: { $ne: false } }, { flag: { $exists: false } }] });
  });

  it("R13: answers true for filters that accept everything and false for those that accept nothing", () => {
    expect(toPineconeFilter({})).toBe(true);
    expect(toPineconeFilter({ tenant: { $nin: [] } })).toBe(true);
    expect(toPineconeFilter({ tenant: { $in: [] } })).toBe(false);
    expect(toPineconeFilter({ tenant: "acme", category: { $in: [] } })).toBe(false);
    expect(toPineconeFilter({ $or: [{ tenant: { $in: [] } }, { category: "billing" }] })).toEqual({ category: { $eq: "billing" } });
  });

  it("R12: keeps every conjunct of a caller's filter joined with an L0 filter, flattening nested $and", () => {
    expect(toPineconeFilter({ $and: [{ tenant: { $eq: "acme" } }, { $and: [{ category: { $eq: "billing" } }, { year: 2020 }] }] })).toEqual(
      {
        $and: [{ tenant: { $eq: "acme" } }, { category: { $eq: "billing" } }, { year: { $eq: 2020 } }],
      },
    );
  });
});
