import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ingestIntoLocalIndex } from "@lookup-knowledge/agent-tool/local";

// `pnpm bench`: the wall time of whole CLI commands on an existing data folder: `query`
// (spools only) and `traces` (answered from the spool while it decides the listing; the
// database path and a 10,000-record spool are traces-on-a-large-spool.ts). What tracing costs
// inside a lookup is apps/agent-tool's tracing bench.

const run = promisify(execFile);
const cli = fileURLToPath(new URL("../main.js", import.meta.url));
const knowledgeBase = fileURLToPath(new URL("../../../../examples/knowledge-base", import.meta.url));

/** `name  median  p95  ms`, in whole milliseconds. */
function wallTimeRow(name: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (fraction: number): string =>
    (sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN).toFixed(0).padStart(9);
  return `${name.padEnd(54)} ${at(0.5)} ${at(0.95)}  ms`;
}

const root = mkdtempSync(join(tmpdir(), "cli-bench-"));
try {
  const dataDirectory = join(root, "data");
  await ingestIntoLocalIndex({ root: knowledgeBase, dataDirectory });
  const { DATABASE_URL: _ignored, ...environment } = process.env;
  const timed = async (...args: string[]): Promise<number> => {
    const started = performance.now();
    await run(process.execPath, [cli, "--data", dataDirectory, ...args], { env: environment });
    return performance.now() - started;
  };
  const queries: number[] = [];
  for (let index = 0; index < 10; index += 1) queries.push(await timed("query", "Who can issue a refund for a paid invoice?"));
  const firstTraces = await timed("traces");
  const traces: number[] = [];
  for (let index = 0; index < 5; index += 1) {
    await timed("query", "How long do refunds take?");
    traces.push(await timed("traces"));
  }

  console.log(`Whole CLI commands on an existing data folder, Node ${process.version}`);
  console.log(`${"what".padEnd(54)} ${"median".padStart(9)} ${"p95".padStart(9)}`);
  console.log(wallTimeRow("CLI query on an existing data folder, wall (10)", queries));
  console.log(wallTimeRow("CLI traces after one query: from the spool, wall (5)", traces));
  console.log(`${"CLI traces, the first (from the spool, no database)".padEnd(54)} ${firstTraces.toFixed(0).padStart(9)}            ms`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
