import { describe, expect, it } from "vitest";
import { formatLookupResult } from "./format-lookup-result.js";
import { runDemo } from "./run-demo.js";

describe("the pnpm start demo", () => {
  it("shows a lookup with evidence, one that falls back (R8) and one with no evidence", async () => {
    const { lookups, traces } = await runDemo();
    const [withEvidence, fallback, none] = lookups.map((lookup) => lookup.result);
    expect(withEvidence).toMatchObject({ found: true });
    expect(withEvidence?.retrievalTrace.attempts[0]?.filter).toEqual({ category: { $eq: "billing" } });
    expect(withEvidence?.evidenceBlocks[0]?.source).toBe("billing/refunds.md");
    expect(fallback).toMatchObject({ found: true });
    expect(fallback?.retrievalTrace.fallbackReason).toBe("filtered_vector_no_evidence");
    expect(fallback?.evidenceBlocks[0]?.source).toBe("integrations/accounting-export.md");
    expect(none).toMatchObject({ found: false, evidenceStatus: "no_evidence" });
    expect(traces).toHaveLength(3);
    for (const lookup of lookups) expect(formatLookupResult(lookup.result)).toContain(lookup.question);
  });
});
