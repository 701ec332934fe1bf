import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDurableTraceStore } from "@lookup-knowledge/trace-store";
import { ingestIntoLocalIndex } from "../ingest-into-local-index.js";
import { tracesDirectory } from "../local-data-folder.js";
import { openLocalKnowledgeBase } from "../open-local-knowledge-base.js";

// `pnpm bench`: the embedded default under load, with the durable trace store on.
// 1. 200 lookups at once: errors, latency p50 / p99, RSS.
// 2. A soak of back-to-back lookups (BENCH_SOAK, default 100,000) in one process: RSS, the
//    spool's size on disk and the records still waiting in it, every 10,000 lookups; then
//    how long the final flush took.

const knowledgeBase = fileURLToPath(new URL("../../../../examples/knowledge-base", import.meta.url));
const soakLookups = Number(process.env.BENCH_SOAK ?? 100_000);

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1))] ?? Number.NaN;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Bytes and record lines in the spool folder (each spooled record is one line). */
async function spoolSize(traceDirectory: string): Promise<{ bytes: number; records: number }> {
  const folder = join(traceDirectory, "spool");
  let bytes = 0;
  let records = 0;
  let names: string[] = [];
  try {
    names = readdirSync(folder);
  } catch {
    return { bytes, records };
  }
  for (const name of names) {
    const file = join(folder, name);
    try {
      const size = statSync(file).size;
      bytes += size;
      if (size > 0 && name.endsWith(".jsonl")) {
        const text = await readFile(file, "utf8");
        for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1)) records += 1;
      }
    } catch {
      // A segment the flusher removed meanwhile.
    }
  }
  return { bytes, records };
}

const root = mkdtempSync(join(tmpdir(), "load-bench-"));
try {
  const dataDirectory = join(root, "data");
  await ingestIntoLocalIndex({ root: knowledgeBase, dataDirectory });
  const questions = (JSON.parse(await readFile(join(knowledgeBase, "questions.json"), "utf8")) as Array<{ question: string }>).map(
    (entry) => entry.question,
  );
  const traceDirectory = tracesDirectory(dataDirectory);
  const traceStore = createDurableTraceStore({
    directory: traceDirectory,
    onError: (error) => console.error(`trace store: ${error.message}`),
  });
  const knowledge = await openLocalKnowledgeBase({ dataDirectory, traceStore });
  try {
    // Warm up: jieba, the word table, the first filtered search.
    for (const question of questions) await knowledge.retriever.lookup(question);

    console.log("\n## Load (examples knowledge base, embedded default, durable trace store)\n");
    const concurrent = 200;
    let errors = 0;
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrent }, async (_, index) => {
        const begin = performance.now();
        try {
          await knowledge.retriever.lookup(questions[index % questions.length] as string);
        } catch {
          errors += 1;
        }
        latencies.push(performance.now() - begin);
      }),
    );
    const wall = performance.now() - started;
    latencies.sort((left, right) => left - right);
    console.log(
      `- ${concurrent} lookups at once: ${errors} errors, wall ${wall.toFixed(0)} ms, latency p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms, RSS ${megabytes(process.memoryUsage().rss)}`,
    );

    console.log(`\n| lookups | RSS | spool on disk | records waiting in the spool | lookups/s (last 10k) |\n|---|---|---|---|---|`);
    let last = performance.now();
    for (let done = 1; done <= soakLookups; done += 1) {
      await knowledge.retriever.lookup(questions[done % questions.length] as string);
      if (done % 10_000 === 0 || done === soakLookups) {
        const now = performance.now();
        const spool = await spoolSize(traceDirectory);
        const rate = ((done % 10_000 || 10_000) / (now - last)) * 1000;
        console.log(
          `| ${done} | ${megabytes(process.memoryUsage().rss)} | ${megabytes(spool.bytes)} | ${spool.records} | ${rate.toFixed(0)} |`,
        );
        last = performance.now();
      }
    }
  } finally {
    const closing = performance.now();
    await knowledge.close();
    console.log(`\n- final flush and close: ${(performance.now() - closing).toFixed(0)} ms`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
