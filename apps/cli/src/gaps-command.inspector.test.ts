import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openKnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { serveInspector, type GapsView } from "@lookup-knowledge/inspector";
import type { KnowledgeGapReport } from "@lookup-knowledge/trace-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliConfig, loadCliConfig } from "./cli-config.js";
import { runGapsCommand } from "./gaps-command.js";
import { openGapTerms } from "./gap-terms.js";
import { exampleKnowledgeBase, runLookupKnowledge } from "./test/run-lookup-knowledge.js";
import { openCliTraceStore } from "./traces-command.js";
import { withLookupKnowledgeBase } from "./with-lookup-knowledge-base.js";

// Issue 37 items 1 and 3: `gaps` and the inspector's Gaps view (as `inspect` serves it) over
// one data folder give the same groups. Gap queries with words whose stem, analysed again, is
// another term or none ("refused" -> "refus" -> "refu", "uses" -> "us" -> a stop word).
const gapQueries: Array<[string, number]> = [
  ["Are refused bitcoin payments returned?", 3],
  ["refused bitcoin invoice", 2],
  ["What uses does ethanol have?", 3],
  ["Who uses the visitor parking?", 2],
  ["Which responses does the payroll office send?", 2],
];

describe("issue 37 review: lookup-knowledge gaps and the inspector's Gaps view agree", () => {
  let cwd: string;
  let config: CliConfig;
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), "lk-gaps-inspector-"));
    const ingest = await runLookupKnowledge(cwd, "--data", "data", "ingest", exampleKnowledgeBase, "--no-progress");
    expect(ingest.code, ingest.stderr).toBe(0);
    config = await loadCliConfig({ cwd, dataDirectory: "data" });
    await withLookupKnowledgeBase(
      config,
      () => undefined,
      async (knowledgeBase) => {
        for (const [query, times] of gapQueries) for (let time = 0; time < times; time += 1) await knowledgeBase.retriever.lookup(query);
      },
    );
  }, 240_000);
  afterAll(() => {
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  it("issue 37 item 1 review: a term's record count is the index's count of the word asked, also when its stem stems again", async () => {
    const terms = await openGapTerms(config);
    try {
      const frequencies = terms.documentFrequencies;
      if (!frequencies) throw new Error("the example base has an embedded index");
      for (const word of ["refused", "uses", "response"]) {
        const [analysed] = terms.analyze(word);
        const term = typeof analysed === "string" ? analysed : (analysed?.term ?? "");
        expect(frequencies.frequency(term), `${word} (${term})`).toBeGreaterThan(0);
      }
    } finally {
      await terms.close();
    }
  });

  it("issue 37 item 3 review: the Gaps view served as `inspect` serves it has the groups of `gaps --json`", async () => {
    const fromCli = JSON.parse(await runGapsCommand(config, { json: true })) as KnowledgeGapReport;
    expect(fromCli.groups.length).toBeGreaterThan(1);
    const knowledgeBase = await openKnowledgeBase({ dataDirectory: config.dataDirectory, store: config.store, config: config.ragKeys });
    const traces = openCliTraceStore(config);
    try {
      const server = await serveInspector({ knowledgeBase, traces, queryStorage: config.traces.queryStorage, port: 0 });
      try {
        const view = (await (await fetch(new URL("/api/gaps", server.url))).json()) as GapsView;
        expect(view.report.lookupsRead).toBe(fromCli.lookupsRead);
        expect(view.report.groups).toEqual(fromCli.groups);
      } finally {
        await server.close();
      }
    } finally {
      await traces.close();
      await knowledgeBase.close();
    }
  });
});
