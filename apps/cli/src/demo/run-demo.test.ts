import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatLookupResult } from "@lookup-knowledge/agent-tool/format";
import { demoQuestions, runDemo } from "./run-demo.js";
import { builtCli } from "../test/built-cli.js";

const cliEntry = builtCli;
const run = promisify(execFile);

const knowledgeBase = fileURLToPath(new URL("../../../../examples/knowledge-base", import.meta.url));

describe("the pnpm start demo over examples/knowledge-base", () => {
  let dataDirectory: string;
  beforeAll(async () => {
    dataDirectory = await mkdtemp(join(tmpdir(), "lookup-knowledge-demo-"));
  });
  afterAll(async () => {
    await rm(dataDirectory, { recursive: true, force: true });
  });

  it("ingests the example base and shows a filtered hit, a fallback, a Chinese answer and no evidence", async () => {
    const { ingest, lookups, traces } = await runDemo({ knowledgeBase, dataDirectory });
    expect(ingest.failed).toEqual([]);
    expect(ingest.added).toBe(ingest.files);
    expect(ingest.files).toBeGreaterThanOrEqual(20);

    const [filtered, fallback, chinese, none] = lookups.map((lookup) => lookup.result);
    // R7: one L0 domain filters the first request, and it is usable.
    expect(filtered?.found).toBe(true);
    expect(filtered?.retrievalTrace.attempts).toHaveLength(1);
    expect(filtered?.retrievalTrace.attempts[0]?.filter).toEqual({ category: { $eq: "billing" } });
    expect(filtered?.evidenceBlocks[0]?.source).toBe("billing/refunds.md");
    // R8/R9: the filtered request is not usable; the retry drops only the L0 filter.
    expect(fallback?.found).toBe(true);
    expect(fallback?.retrievalTrace.fallbackReason).toMatch(/^filtered_vector_(no_evidence|low_quality)$/);
    expect(fallback?.retrievalTrace.attempts[1]?.filter).toBeUndefined();
    expect(fallback?.evidenceBlocks[0]?.source).toBe("integrations/accounting-export.md");
    // A Chinese question finds the Chinese document.
    expect(chinese?.found).toBe(true);
    expect(chinese?.evidenceBlocks[0]?.source).toBe("zh/billing/refunds.md");
    // R11: nothing in the base answers it.
    expect(none).toMatchObject({ found: false, evidenceStatus: "no_evidence" });

    // R27: every demo lookup left a record in the data folder's durable store.
    expect(traces.map((record) => record.query).sort()).toEqual(demoQuestions.map(([, question]) => question).sort());
    for (const lookup of lookups) expect(formatLookupResult(lookup.result)).toContain(lookup.question.replace("？", "?"));
  });

  it("R27: after the demo, the real CLI lists its lookups with `traces` and shows one whole with `trace <id>`", async () => {
    const { DATABASE_URL: _ignored, ...environment } = process.env;
    const cli = (...args: string[]) => run(process.execPath, [cliEntry, "--data", dataDirectory, ...args], { env: environment });
    const { stdout } = await cli("traces");
    for (const [, question] of demoQuestions) expect(stdout).toContain(question.slice(0, 30));
    const id = /([0-9a-f-]{36})\n/.exec(stdout)?.[1];
    expect(id).toBeDefined();
    const details = await cli("trace", id ?? "");
    expect(details.stdout).toContain(`id           ${id}`);
    expect(details.stdout).toMatch(/L0 hints\n[\s\S]*Attempts\n[\s\S]*Rerank\n[\s\S]*Evidence\n/);
  });

  it("is incremental: a second run writes nothing and answers the same", async () => {
    const again = await runDemo({ knowledgeBase, dataDirectory });
    expect(again.ingest).toMatchObject({ added: 0, changed: 0, removed: 0, chunksWritten: 0 });
    expect(again.ingest.unchanged).toBe(again.ingest.files);
    expect(again.lookups[0]?.result.evidenceBlocks[0]?.source).toBe("billing/refunds.md");
  });
});
