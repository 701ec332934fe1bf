import { emptyL0Hints, type L0Hints } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { deriveL0Filter } from "./derive-l0-filter.js";

const hints = (domains: string[], otherDomains?: string[]): L0Hints => ({
  ...emptyL0Hints(),
  domains,
  ...(otherDomains ? { otherDomains } : {}),
});

describe("deriveL0Filter", () => {
  it("R7: one hinted domain becomes a category filter", () => {
    expect(deriveL0Filter(hints(["billing"]))).toEqual({ category: { $eq: "billing" } });
    expect(deriveL0Filter(hints([" billing ", "billing"]))).toEqual({ category: { $eq: "billing" } });
  });

  it("R7: no domain, or two, gives no filter", () => {
    expect(deriveL0Filter(emptyL0Hints())).toBeUndefined();
    expect(deriveL0Filter(hints(["billing", "accounts"]))).toBeUndefined();
    expect(deriveL0Filter(hints(["", "  "]))).toBeUndefined();
  });

  it("R7: a domain only generic words matched is no hint: it stops a filter but never creates one", () => {
    expect(deriveL0Filter(hints(["billing"], ["accounts"]))).toBeUndefined();
    expect(deriveL0Filter(hints(["billing"], ["billing"]))).toEqual({ category: { $eq: "billing" } });
    expect(deriveL0Filter(hints([], ["accounts"]))).toBeUndefined();
  });
});
