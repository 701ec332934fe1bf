import type { SearchHit } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import type { KnowledgeSearchPort } from "../knowledge-search-port.js";
import { createInMemorySearchPort } from "./create-in-memory-search-port.js";
import { describePortConformance } from "./describe-port-conformance.js";
import type { ConformanceTestApi, PortConformanceFactory } from "./port-conformance-subject.js";

interface Outcome {
  name: string;
  passed: boolean;
}

/** Runs the suite with a small test API of its own and reports which checks passed. */
async function runSuite(makePort: PortConformanceFactory): Promise<Outcome[]> {
  interface Group {
    before: Array<() => Promise<void>>;
    after: Array<() => Promise<void>>;
    tests: Array<{ name: string; body: () => Promise<void> }>;
    groups: Group[];
  }
  const root: Group = { before: [], after: [], tests: [], groups: [] };
  let current = root;
  const api: ConformanceTestApi = {
    describe(_name, body) {
      const group: Group = { before: [], after: [], tests: [], groups: [] };
      current.groups.push(group);
      const parent = current;
      current = group;
      body();
      current = parent;
    },
    it(name, body) {
      current.tests.push({ name, body });
    },
    beforeAll(body) {
      current.before.push(body);
    },
    afterAll(body) {
      current.after.push(body);
    },
  };
  describePortConformance("probe", makePort, { test: api });
  const outcomes: Outcome[] = [];
  const run = async (group: Group): Promise<void> => {
    for (const hook of group.before) await hook();
    for (const test of group.tests) {
      const passed = await test.body().then(
        () => true,
        () => false,
      );
      outcomes.push({ name: test.name, passed });
    }
    for (const child of group.groups) await run(child);
    for (const hook of group.after) await hook();
  };
  await run(root);
  return outcomes;
}

function portAround(change: (port: KnowledgeSearchPort, hits: SearchHit[]) => SearchHit[], dropFilter = false): PortConformanceFactory {
  return () => {
    const inner = createInMemorySearchPort();
    return {
      port: {
        async search(request) {
          const hits = await inner.search(dropFilter ? { ...request, filter: undefined } : request);
          return change(inner, hits);
        },
      },
      writer: {
        async upsert(records) {
          inner.upsert(records);
        },
        async deleteDocuments(docIds) {
          return docIds.reduce((sum, docId) => sum + inner.deleteByDocId(docId), 0);
        },
      },
    };
  };
}

const failed = (outcomes: Outcome[]) => outcomes.filter((outcome) => !outcome.passed).map((outcome) => outcome.name);

describe("describePortConformance", () => {
  it("R13: passes a correct port on every check", async () => {
    const outcomes = await runSuite(portAround((_port, hits) => hits));
    expect(outcomes.length).toBeGreaterThan(40);
    expect(failed(outcomes)).toEqual([]);
  });

  it("R13: fails a port that ignores filters, on the filter checks", async () => {
    const names = failed(await runSuite(portAround((_port, hits) => hits, true)));
    expect(names.some((name) => name.includes("filter $eq on a string"))).toBe(true);
    expect(names.some((name) => name.includes("$ne on an unknown field"))).toBe(false);
    expect(names.some((name) => name.includes("identity"))).toBe(false);
  });

  it("R13: fails a port whose scores leave 0..1 or come out of order", async () => {
    const tooHigh = failed(await runSuite(portAround((_port, hits) => hits.map((hit) => ({ ...hit, score: (hit.score ?? 0) * 2 + 1 })))));
    expect(tooHigh.some((name) => name.includes("scores are numbers in 0..1"))).toBe(true);
    const reversed = failed(await runSuite(portAround((_port, hits) => [...hits].reverse())));
    expect(reversed.some((name) => name.includes("scores are numbers in 0..1"))).toBe(true);
  });

  it("R13: fails a port that loses metadata types or returns more than topK", async () => {
    const stringly = failed(
      await runSuite(
        portAround((_port, hits) =>
          hits.map((hit) => ({
            ...hit,
            metadata: Object.fromEntries(Object.entries(hit.metadata).map(([key, value]) => [key, String(value)])),
          })),
        ),
      ),
    );
    expect(stringly.some((name) => name.includes("identity"))).toBe(true);
    const wide = failed(await runSuite(portAround((_port, hits) => [...hits, ...hits.map((hit) => ({ ...hit, id: `${hit.id}-copy` }))])));
    expect(wide.some((name) => name.includes("at most topK"))).toBe(true);
  });

  it("throws a ConfigurationError naming `test` when no test functions are given or global", () => {
    expect(() =>
      describePortConformance(
        "x",
        portAround((_port, hits) => hits),
      ),
    ).toThrow(/Invalid configuration test=/);
  });
});
