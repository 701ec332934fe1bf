import type { KnowledgeGapGroup, KnowledgeGapReport } from "@lookup-knowledge/trace-store";
import { describe, expect, it } from "vitest";
import { formatGapReport } from "./format-gap-report.js";

function report(group: Partial<KnowledgeGapGroup>): KnowledgeGapReport {
  return {
    since: "2026-03-01T00:00:00.000Z",
    until: "2026-03-08T00:00:00.000Z",
    lookupsRead: 5,
    distinctQueries: 2,
    queryText: "shown",
    salience: "knowledge-base",
    groups: [
      {
        id: "gap-0123456789abcdef",
        kind: "missing-page",
        lookups: 5,
        refusedLookups: 4,
        lowRelevanceLookups: 1,
        distinctQueries: 2,
        firstSeen: "2026-03-02T10:00:00.000Z",
        lastSeen: "2026-03-02T11:00:00.000Z",
        terms: ["bitcoin"],
        examples: ["Can I pay with bitcoin?"],
        closest: [],
        bestScore: 0.134,
        bestRefusedScore: 0.009,
        threshold: 0.04,
        lookupIds: ["id-1"],
        perDay: [{ day: "2026-03-02", lookups: 5 }],
        ...group,
      },
    ],
  };
}

describe("formatGapReport (issue 37 review)", () => {
  it("issue 37 item 1: a missing page with a low-relevance answer above the threshold shows the refused lookups' best, which its kind read", () => {
    const text = formatGapReport(report({}));
    expect(text).toContain("score     best 0.134, refused best 0.009, threshold 0.040: under half the threshold, nothing close");
  });

  it("issue 37 item 1: a group answered with low relevance only does not say it was refused or under the threshold", () => {
    const text = formatGapReport(report({ refusedLookups: 0, lowRelevanceLookups: 5, bestRefusedScore: null }));
    expect(text).toContain("a missing page: 5 lookups (0 refused, 5 low relevance)");
    expect(text).toContain("score     best 0.134, threshold 0.040: answered with low relevance, none refused");
  });

  it("issue 37 item 1: a hostile page source, title or query reaches the terminal with no control or format character", () => {
    const text = formatGapReport(
      report({
        examples: ["q \u001b]0;owned\u0007 \u202e"],
        closest: [{ source: "docs/\u001b[2Jevil\u009b.md", title: "T\u001b[31m\u2066", bestScore: null }],
        terms: ["t\u001b[1m"],
      }),
    );
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });
});
