import type { MetadataFilter } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { andFilters } from "./and-filters.js";
import { equalsFilter } from "./equals-filter.js";
import { matchesFilter } from "./matches-filter.js";

describe("andFilters", () => {
  it("returns undefined when no filter is given or all are empty", () => {
    expect(andFilters()).toBeUndefined();
    expect(andFilters(undefined, undefined)).toBeUndefined();
    expect(andFilters({}, undefined, { $and: [] })).toBeUndefined();
  });

  it("returns a single remaining filter as it is", () => {
    const caller: MetadataFilter = { tenant: { $eq: "acme" } };
    expect(andFilters(undefined, caller, {})).toBe(caller);
  });

  it("joins two filters with $and, in argument order", () => {
    const caller: MetadataFilter = { tenant: { $eq: "acme" } };
    const l0 = equalsFilter("category", "billing");
    expect(andFilters(caller, l0)).toEqual({
      $and: [{ tenant: { $eq: "acme" } }, { category: { $eq: "billing" } }],
    });
  });

  it("flattens nested $and filters", () => {
    const left: MetadataFilter = { $and: [{ a: 1 }, { $and: [{ b: 2 }, { c: 3 }] }] };
    const right: MetadataFilter = { $and: [{ d: 4 }] };
    expect(andFilters(left, right, { e: 5 })).toEqual({ $and: [{ a: 1 }, { b: 2 }, { c: 3 }, { d: 4 }, { e: 5 }] });
  });

  it("keeps a filter that mixes $and with field conditions as one conjunct", () => {
    const mixed: MetadataFilter = { tenant: "acme", $and: [{ a: 1 }] };
    expect(andFilters(mixed, { b: 2 })).toEqual({ $and: [mixed, { b: 2 }] });
  });

  it("never mutates its inputs", () => {
    const caller: MetadataFilter = { $and: [{ tenant: { $eq: "acme" } }, { scope: { $in: ["public"] } }] };
    const l0: MetadataFilter = { category: { $eq: "billing" } };
    const before = structuredClone([caller, l0]);
    andFilters(caller, l0);
    andFilters(l0, caller, undefined);
    expect([caller, l0]).toEqual(before);
  });

  it("R12: keeps every caller condition when an L0 filter is added", () => {
    const caller: MetadataFilter = { $and: [{ tenant: { $eq: "acme" } }, { scope: { $in: ["public", "staff"] } }] };
    const combined = andFilters(caller, equalsFilter("category", "billing"));
    const parts = combined?.$and ?? [];
    expect(parts).toContainEqual({ tenant: { $eq: "acme" } });
    expect(parts).toContainEqual({ scope: { $in: ["public", "staff"] } });
    expect(parts).toContainEqual({ category: { $eq: "billing" } });
    // The combined filter refuses what the caller's filter refuses.
    expect(matchesFilter({ tenant: "other", scope: "public", category: "billing" }, combined)).toBe(false);
    expect(matchesFilter({ tenant: "acme", scope: "secret", category: "billing" }, combined)).toBe(false);
    expect(matchesFilter({ tenant: "acme", scope: "staff", category: "billing" }, combined)).toBe(true);
  });

  it("R12: a caller filter survives when the retry drops the L0 part", () => {
    const caller: MetadataFilter = { tenant: { $eq: "acme" } };
    const first = andFilters(caller, equalsFilter("category", "billing"));
    const retry = andFilters(caller, undefined);
    expect(first).toEqual({ $and: [{ tenant: { $eq: "acme" } }, { category: { $eq: "billing" } }] });
    expect(retry).toEqual({ tenant: { $eq: "acme" } });
    expect(matchesFilter({ tenant: "other", category: "shipping" }, retry)).toBe(false);
    expect(matchesFilter({ tenant: "acme", category: "shipping" }, retry)).toBe(true);
  });
});
