import { describe, expect, it } from "vitest";
import { buildKnowledgeGapReport } from "./build-knowledge-gap-report.js";
import type { KnowledgeGapRow } from "./knowledge-gap-row.js";

/** Lower-cased words of three letters or more, minus a few stop words: enough analyzer for the grouping's own rules. */
const stopWords = new Set(["how", "the", "and", "for", "does", "can", "what", "with"]);
function analyze(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]{3,}/g) ?? []).filter((word) => !stopWords.has(word));
}

let sequence = 0;
function row(query: string, lookups: number, extra: Partial<KnowledgeGapRow> = {}): KnowledgeGapRow {
  sequence += 1;
  const made: KnowledgeGapRow = {
    query,
    lookups,
    refusedLookups: lookups,
    lowRelevanceLookups: 0,
    firstSeen: "2026-03-01T10:00:00.000Z",
    lastSeen: "2026-03-02T10:00:00.000Z",
    bestScore: 0.001,
    threshold: 0.04,
    hintTerms: [],
    pages: [],
    recentLookups: {
      ids: [`id-${sequence}`],
      createdAtMs: [Date.parse(`2026-03-02T10:00:${String(sequence % 60).padStart(2, "0")}.000Z`)],
    },
    // Days since 1970: 2026-03-01 and 2026-03-02.
    perDay: [
      { day: Date.UTC(2026, 2, 1) / 86_400_000, lookups: 1 },
      { day: Date.UTC(2026, 2, 2) / 86_400_000, lookups: lookups - 1 },
    ],
    bestRefusedScore: null,
    ...extra,
  };
  return "bestRefusedScore" in extra ? made : { ...made, bestRefusedScore: made.refusedLookups > 0 ? made.bestScore : null };
}

const period = { since: new Date("2026-03-01T00:00:00Z"), until: new Date("2026-03-08T00:00:00Z"), analyze };

describe("buildKnowledgeGapReport", () => {
  it("issue 37 item 3: a group's lookup ids are its queries' newest, newest first, a later id first on the same millisecond, capped", () => {
    const at = (second: number): number => Date.parse("2026-03-02T10:00:00.000Z") + second * 1000;
    const deploy = { ids: ["k-9", "k-5", "k-2"], createdAtMs: [at(9), at(5), at(2)] };
    const helm = { ids: ["h-8", "h-5", "h-1"], createdAtMs: [at(8), at(5), at(1)] };
    const docs = { ids: ["d-7", "d-3"], createdAtMs: [at(7), at(3)] };
    const lists = [deploy, helm, docs];
    const rows = [
      row("kubernetes deploy", 3, { recentLookups: deploy }),
      row("kubernetes helm", 3, { recentLookups: helm }),
      row("kubernetes docs", 2, { recentLookups: docs }),
    ];
    const every = lists
      .flatMap((list) => list.ids.map((id, index) => ({ id, at: list.createdAtMs[index] as number })))
      .sort((left, right) => right.at - left.at || (left.id < right.id ? 1 : left.id > right.id ? -1 : 0))
      .map((lookup) => lookup.id);
    const [group] = buildKnowledgeGapReport(rows, { ...period, maxLookupIds: 5 }).groups;
    expect(group?.lookupIds).toEqual(["k-9", "h-8", "d-7", "k-5", "h-5"]);
    expect(group?.lookupIds).toEqual(every.slice(0, 5));
    expect(buildKnowledgeGapReport(rows, { ...period, maxLookupIds: 50 }).groups[0]?.lookupIds).toEqual(every);
  });

  it("issue 37 item 1: queries that share their salient terms form one group, largest group first, with counts, examples and days", () => {
    const report = buildKnowledgeGapReport(
      [
        row("How do I deploy on kubernetes?", 4),
        row("kubernetes helm chart", 3),
        row("Does it run on kubernetes", 2),
        row("crypto mining rewards", 5),
        row("crypto wallet setup", 1),
      ],
      period,
    );
    expect(report.groups.map((group) => [group.lookups, group.distinctQueries, group.terms[0]])).toEqual([
      [9, 3, "kubernetes"],
      [6, 2, "crypto"],
    ]);
    const [kubernetes] = report.groups;
    expect(kubernetes?.examples).toEqual(["How do I deploy on kubernetes?", "kubernetes helm chart", "Does it run on kubernetes"]);
    expect(kubernetes?.perDay).toEqual([
      { day: "2026-03-01", lookups: 3 },
      { day: "2026-03-02", lookups: 6 },
    ]);
    expect(kubernetes?.id).toMatch(/^gap-[0-9a-f]{16}$/);
    expect(report).toMatchObject({ lookupsRead: 15, distinctQueries: 5, queryText: "shown", salience: "records" });
  });

  it("issue 37 item 5: the same rows in any order give the same groups, ids and order", () => {
    const rows = [
      row("kubernetes pods", 2),
      row("kubernetes nodes", 2),
      row("saml login", 2),
      row("saml metadata", 2),
      row("lonely question", 1),
    ];
    const first = buildKnowledgeGapReport(rows, period);
    const reversed = buildKnowledgeGapReport([...rows].reverse(), period);
    const shuffled = buildKnowledgeGapReport([rows[2], rows[0], rows[4], rows[3], rows[1]] as KnowledgeGapRow[], period);
    expect(reversed).toEqual(first);
    expect(shuffled).toEqual(first);
    expect(first.groups).toHaveLength(3);
  });

  it("issue 37 item 1: a chain of queries each sharing a word with the next does not merge unrelated topics", () => {
    const report = buildKnowledgeGapReport(
      [row("alpha beta", 3), row("beta gamma", 2), row("gamma delta", 1), row("delta epsilon", 1)],
      period,
    );
    // "beta gamma" shares "beta" with the first; "gamma delta" shares nothing with that group's first query.
    expect(report.groups.map((group) => group.examples)).toEqual([
      ["alpha beta", "beta gamma"],
      ["delta epsilon", "gamma delta"],
    ]);
  });

  it("issue 37 item 1: a term half the knowledge base holds does not link queries; a rare one does", () => {
    const frequencies = new Map([
      ["configure", 20],
      ["kubernetes", 0],
      ["saml", 1],
    ]);
    const report = buildKnowledgeGapReport([row("configure kubernetes", 2), row("configure saml", 2), row("kubernetes", 1)], {
      ...period,
      documentFrequencies: { documentCount: 31, frequency: (term) => frequencies.get(term) ?? 0 },
    });
    expect(report.salience).toBe("knowledge-base");
    expect(report.groups.map((group) => group.examples)).toEqual([["configure kubernetes", "kubernetes"], ["configure saml"]]);
    expect(report.groups[0]?.terms).toEqual(["kubernetes"]);
  });

  it("issue 37 item 1 (review): a term exactly half the knowledge base holds is not salient either", () => {
    const frequencies = new Map([["configure", 15]]);
    const report = buildKnowledgeGapReport([row("configure kubernetes", 2), row("configure saml", 2)], {
      ...period,
      documentFrequencies: { documentCount: 30, frequency: (term) => frequencies.get(term) ?? 0 },
    });
    expect(report.groups.map((group) => group.terms).sort()).toEqual([["kubernetes"], ["saml"]]);
  });

  it("issue 37 item 1: a refused page is a best score at or above half the threshold; below it the page is missing", () => {
    const report = buildKnowledgeGapReport(
      [
        row("billing export", 3, {
          bestScore: 0.02,
          threshold: 0.04,
          pages: [{ source: "docs/billing.md", title: "Billing", bestScore: 0.02 }],
        }),
        row("quantum teleport", 2, { bestScore: 0.0199, threshold: 0.04 }),
        row("unscored thing", 1, { bestScore: null, threshold: 0.04 }),
      ],
      period,
    );
    expect(report.groups.map((group) => [group.examples[0], group.kind, group.bestScore, group.threshold])).toEqual([
      ["billing export", "refused-page", 0.02, 0.04],
      ["quantum teleport", "missing-page", 0.0199, 0.04],
      ["unscored thing", "missing-page", null, 0.04],
    ]);
    expect(report.groups[0]?.closest).toEqual([{ source: "docs/billing.md", title: "Billing", bestScore: 0.02 }]);
  });

  it("issue 37 item 1: a low-relevance answer above the threshold does not make refused lookups far under it a refused page", () => {
    const answeredWeakly = { refusedLookups: 1, lowRelevanceLookups: 2, bestScore: 0.13, bestRefusedScore: 0.004, threshold: 0.04 };
    const onlyWeak = { refusedLookups: 0, lowRelevanceLookups: 2, bestScore: 0.03, bestRefusedScore: null, threshold: 0.04 };
    const report = buildKnowledgeGapReport([row("bitcoin payment fees", 3, answeredWeakly), row("payroll export", 2, onlyWeak)], period);
    expect(report.groups.map((group) => [group.examples[0], group.kind, group.bestScore, group.bestRefusedScore])).toEqual([
      ["bitcoin payment fees", "missing-page", 0.13, 0.004],
      ["payroll export", "missing-page", 0.03, null],
    ]);
  });

  it("issue 37 item 1 (review): a group none of whose lookups was refused is not a page we refuse, whatever its answers scored", () => {
    // The local index's gate hands out a judged near miss above the threshold as low relevance (0.134 against 0.04).
    const answeredOnly = { refusedLookups: 0, lowRelevanceLookups: 1, bestScore: 0.134, bestRefusedScore: null, threshold: 0.04 };
    const report = buildKnowledgeGapReport([row("payroll tax filing", 1, answeredOnly)], period);
    expect(report.groups.map((group) => group.kind)).toEqual(["missing-page"]);
  });

  it("issue 37 item 3: under hash storage no query text appears anywhere; groups come from the stored hints and sources", () => {
    const secret = "confidential merger plan";
    const report = buildKnowledgeGapReport(
      [
        // Kept as text before the setting: its hints' words are the query's, so only its page links it.
        row(secret, 3, { hintTerms: ["merger"], pages: [{ source: "docs/plans.md", bestScore: null }] }),
        row("hmac-sha256:feed", 2, {
          hintTerms: ["hash:aaaaaaaaaaaa", "hash:bbbbbbbbbbbb"],
          pages: [{ source: "docs/plans.md", bestScore: null }],
        }),
        row("hmac-sha256:beef", 1),
      ],
      { ...period, queryStorage: "hash" },
    );
    const text = JSON.stringify(report);
    expect(text).not.toContain("confidential");
    expect(text).not.toContain("merger");
    expect(report.queryText).toBe("hashed");
    expect(report.note).toMatch(/no query text is shown.*hints and sources only/);
    expect(report.groups.map((group) => [group.lookups, group.examples])).toEqual([
      [5, []],
      [1, []],
    ]);
    expect(report.groups[0]?.terms).toEqual(["source:docs/plans.md"]);
  });

  it("issue 37 item 3: stored hashes are never shown even when the settings keep text now", () => {
    const report = buildKnowledgeGapReport([row("hmac-sha256:0123", 2), row("plain question here", 1)], period);
    expect(report.queryText).toBe("shown");
    expect(report.note).toMatch(/1 of the 2 distinct queries are kept as keyed hashes/);
    expect(report.groups.flatMap((group) => group.examples)).toEqual(["plain question here"]);
  });

  it("issue 37 item 1: an empty period says so", () => {
    expect(buildKnowledgeGapReport([], period)).toMatchObject({ groups: [], lookupsRead: 0, note: expect.stringMatching(/No refused/) });
  });
});

describe("buildKnowledgeGapReport under hash storage, over records kept as text before the setting (issue 37 review)", () => {
  it("issue 37 item 3: their hint terms (the words the query matched, kept as text then) and an unkeyed hash of their text are not shown", async () => {
    const { createHash } = await import("node:crypto");
    const secret = "confidential merger plan";
    const report = buildKnowledgeGapReport(
      [
        row(secret, 3, { hintTerms: ["merger", "plan"], pages: [{ source: "docs/plans.md", bestScore: null }] }),
        row("hmac-sha256:feed", 2, { hintTerms: ["hash:aaaaaaaaaaaa"], pages: [{ source: "docs/plans.md", bestScore: null }] }),
      ],
      { ...period, queryStorage: "hash" },
    );
    const text = JSON.stringify(report);
    expect(text).not.toContain("merger");
    expect(text).not.toContain('plan"');
    const unkeyed = (queries: string[]) =>
      `gap-${createHash("sha256")
        .update([...queries].sort().join("\n"), "utf8")
        .digest("hex")
        .slice(0, 16)}`;
    for (const group of report.groups) {
      expect(group.id).not.toBe(unkeyed([secret]));
      expect(group.id).not.toBe(unkeyed([secret, "hmac-sha256:feed"]));
    }
    // Still grouped by what may be shown: the page both came near.
    expect(report.groups.map((group) => group.lookups)).toEqual([5]);
    const alone = buildKnowledgeGapReport([row(secret, 3, { hintTerms: ["merger", "plan"] })], { ...period, queryStorage: "hash" });
    expect(alone.groups).toHaveLength(1);
    expect(alone.groups[0]?.terms).toEqual([]);
    expect(alone.groups[0]?.id).not.toBe(unkeyed([secret]));
  });
});
