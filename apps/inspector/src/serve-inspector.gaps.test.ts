import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeGapReport } from "@lookup-knowledge/trace-store";
import { serveInspector } from "./serve-inspector.js";
import { knowledgeBaseGapTerms } from "./knowledge-base-gap-terms.js";
import type { GapsView } from "./gaps-api.js";
import { gapTopics, inspectGapsBase, utcDay, type GapLookup, type GapsBase } from "./test/gaps-base.js";
import { call, getJson } from "./test/inspector-http.js";

/** The gap lookups per UTC day, from what each lookup returned when it was recorded. */
function gapsPerDay(lookups: readonly GapLookup[], since = new Date(0)): Map<string, number> {
  const days = new Map<string, number>();
  for (const lookup of lookups) {
    if (lookup.gap && lookup.at >= since) days.set(utcDay(lookup.at), (days.get(utcDay(lookup.at)) ?? 0) + 1);
  }
  return days;
}

/** A report's groups without its period (which ends at each call's "now"). */
const groupsOf = (report: Pick<KnowledgeGapReport, "groups">) => JSON.parse(JSON.stringify(report.groups)) as KnowledgeGapReport["groups"];

describe("issue 37 item 3: GET /api/gaps over lookups recorded by the real retriever on the example base", () => {
  let base: GapsBase;
  beforeAll(async () => {
    base = await inspectGapsBase();
  }, 180_000);
  afterAll(async () => {
    await base?.close();
  });

  it("issue 37 item 3: the groups of `lookup-knowledge gaps` (the trace store's knowledgeGaps, same terms), largest first, each lookup counted once", async () => {
    const answer = await getJson<GapsView>(base, "/api/gaps");
    const { report } = answer;
    const gaps = base.lookups.filter((lookup) => lookup.gap);
    expect(gaps.length).toBeGreaterThan(8);
    expect(report.queryText).toBe("shown");
    expect(report.lookupsRead).toBe(gaps.length);
    expect(report.groups.reduce((sum, group) => sum + group.lookups, 0)).toBe(gaps.length);
    const sizes = report.groups.map((group) => group.lookups);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    // The topic asked most is the largest group, and nothing in the base comes close to it.
    const [largest] = report.groups;
    expect(largest?.examples.every((query) => (gapTopics.ethanol as readonly string[]).includes(query))).toBe(true);
    expect(largest?.lookups).toBe(gaps.filter((lookup) => (gapTopics.ethanol as readonly string[]).includes(lookup.query)).length);
    expect(largest?.kind).toBe("missing-page");
    // Answered lookups are in no group.
    const examples = report.groups.flatMap((group) => group.examples);
    for (const query of gapTopics.answered) expect(examples).not.toContain(query);
    // The same groups as the trace store computes for `gaps` with the same terms.
    const direct = await base.traces.knowledgeGaps({
      since: new Date(report.since),
      until: new Date(report.until),
      ...knowledgeBaseGapTerms(base.knowledgeBase),
    });
    expect(groupsOf(report)).toEqual(groupsOf(direct));
    // Each of a group's lookups is a recorded lookup of one of its queries.
    for (const group of report.groups) {
      expect(group.lookupIds).toHaveLength(group.lookups);
      for (const id of group.lookupIds) {
        const trace = await getJson<{ query: string }>(base, `/api/traces/${encodeURIComponent(id)}`);
        expect(group.examples).toContain(trace.query);
      }
    }
  });

  it("issue 37 item 3: the chart's counts are the gap lookups of every day of the period (30 days by default), 0 on days without", async () => {
    const { report, chart } = await getJson<GapsView>(base, "/api/gaps");
    expect(Date.parse(report.until) - Date.parse(report.since)).toBe(30 * 24 * 3_600_000);
    expect(chart.days.length).toBeGreaterThanOrEqual(30);
    expect(chart.days[chart.days.length - 1]?.day).toBe(utcDay(new Date(report.until)));
    expect(chart.cut).toBe(false);
    const expected = gapsPerDay(base.lookups);
    expect(new Map(chart.days.filter((day) => day.count > 0).map((day) => [day.day, day.count]))).toEqual(expected);
    // Each group's days (what its own chart draws) are the gap lookups of its queries on each day.
    const drawn = new Set(chart.days.map((day) => day.day));
    for (const group of report.groups) {
      expect(group.perDay.every((day) => drawn.has(day.day))).toBe(true);
      const own = gapsPerDay(base.lookups.filter((lookup) => group.examples.includes(lookup.query)));
      expect(new Map(group.perDay.map((day) => [day.day, day.lookups]))).toEqual(own);
    }
  });

  it("issue 37 item 3: the period is selectable as in the Traces view (`since`: an age or a date); a bad one is refused naming it", async () => {
    const { report, chart } = await getJson<GapsView>(base, "/api/gaps?since=1d");
    const since = new Date(report.since);
    const today = base.lookups.filter((lookup) => lookup.gap && lookup.at >= since);
    expect(today.length).toBeGreaterThan(0);
    expect(today.length).toBeLessThan(base.lookups.filter((lookup) => lookup.gap).length);
    expect(report.lookupsRead).toBe(today.length);
    expect(new Map(chart.days.filter((day) => day.count > 0).map((day) => [day.day, day.count]))).toEqual(gapsPerDay(base.lookups, since));
    const old = await getJson<GapsView>(base, `/api/gaps?since=${utcDay(new Date(Date.now() - 40 * 24 * 3_600_000))}`);
    expect(old.report.lookupsRead).toBe(base.lookups.filter((lookup) => lookup.gap).length);
    expect(old.chart.days.length).toBeGreaterThanOrEqual(40);
    const bad = await call(new URL("/api/gaps?since=last%20week", base.server.url).href);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toMatchObject({ code: "invalid_request" });
    expect(JSON.parse(bad.body).error.message).toContain('"last week"');
    const future = await call(new URL("/api/gaps?since=2999-01-01", base.server.url).href);
    expect(future.status).toBe(400);
    expect(JSON.parse(future.body).error.message).toBe('since must not be in the future, got "2999-01-01" (2999-01-01T00:00:00.000Z).');
  });

  it("issue 37 item 4: records kept as text are shown as hashes when the setting is now hash: no query text, no query word", async () => {
    const hashServer = await serveInspector({ knowledgeBase: base.knowledgeBase, traces: base.traces, queryStorage: "hash", port: 0 });
    try {
      const answer = (await (await fetch(new URL("/api/gaps", hashServer.url))).json()) as GapsView;
      expect(answer.report.queryText).toBe("hashed");
      expect(answer.report.groups.length).toBeGreaterThan(0);
      const whole = JSON.stringify(answer).toLowerCase();
      for (const query of Object.values(gapTopics).flat()) expect(whole).not.toContain(query.toLowerCase());
      for (const word of ["ethanol", "bitcoin", "parking"]) expect(whole).not.toContain(word);
      // The lookups a group opens, and the Traces list, hold none either (issue 37 review).
      const ids = answer.report.groups.flatMap((group) => group.lookupIds);
      const opened = await Promise.all(ids.map(async (id) => (await fetch(new URL(`/api/traces/${id}`, hashServer.url))).text()));
      const listed = await (await fetch(new URL("/api/traces?pageSize=200", hashServer.url))).text();
      for (const text of [...opened, listed].map((body) => body.toLowerCase())) {
        for (const query of Object.values(gapTopics).flat()) expect(text).not.toContain(query.toLowerCase());
        for (const word of ["ethanol", "bitcoin", "parking"]) expect(text).not.toContain(word);
      }
    } finally {
      await hashServer.close();
    }
  });

  it("issue 37 item 3: a trace store without knowledgeGaps answers gaps_unavailable, naming what is missing", async () => {
    const server = await serveInspector({
      knowledgeBase: base.knowledgeBase,
      traces: { list: (query) => base.traces.list(query), get: (id) => base.traces.get(id) },
      port: 0,
    });
    try {
      const answer = await call(new URL("/api/gaps", server.url).href);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body).error).toMatchObject({ code: "gaps_unavailable" });
      expect(JSON.parse(answer.body).error.message).toContain("knowledgeGaps");
    } finally {
      await server.close();
    }
  });
});

describe("issue 37 item 4: GET /api/gaps with traces.store-query hash", () => {
  let base: GapsBase;
  beforeAll(async () => {
    base = await inspectGapsBase({ queryStorage: "hash" });
  }, 180_000);
  afterAll(async () => {
    await base?.close();
  });

  it("issue 37 item 4: the answer holds no query text nor any word only the queries hold, and says groups come from hints and sources", async () => {
    const answer = await getJson<GapsView>(base, "/api/gaps");
    const { report } = answer;
    expect(report.queryText).toBe("hashed");
    expect(report.note).toMatch(/hint/i);
    expect(report.groups.length).toBeGreaterThan(0);
    expect(report.lookupsRead).toBe(base.lookups.filter((lookup) => lookup.gap).length);
    for (const group of report.groups) expect(group.examples).toEqual([]);
    const whole = JSON.stringify(answer).toLowerCase();
    for (const query of Object.values(gapTopics).flat()) expect(whole).not.toContain(query.toLowerCase());
    // Words no document of the example base holds: only a query could have brought them.
    for (const word of ["ethanol", "boil", "bitcoin", "parking"]) expect(whole).not.toContain(word);
  });
});
