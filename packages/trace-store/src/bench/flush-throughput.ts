import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDurableTraceStore } from "../durable/create-durable-trace-store.js";
import { createTraceSpool } from "../spool/create-trace-spool.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";

// `pnpm bench`: how fast spooled records move into each database (sustained flush
// throughput), and what one append to the spool costs. PostgreSQL runs when
// LOOKUP_KNOWLEDGE_BENCH_DATABASE_URL (or LOOKUP_KNOWLEDGE_TEST_DATABASE_URL) is set.

const records = 20_000;
const base = Date.UTC(1990, 0, 1);

function record(index: number): ToolInvocationRecord {
  const evidence = Array.from({ length: 5 }, (_, block) => ({
    evidenceKey: `guides/doc-${block}#chunk-${index % 3}`,
    source: `guides/doc-${block}.md`,
    title: `Guide ${block}`,
    retrievalLayer: "L0+L1" as const,
    score: 0.8 - block * 0.05,
    hitReasons: [`semantic match ${(0.8 - block * 0.05).toFixed(2)}`, 'keyword "gateway"'],
    preview: "The gateway routes each request to an upstream after the rate limit plugin has run; a consumer token is checked first.",
  }));
  return {
    id: `bench-${index}`,
    toolName: "lookup_knowledge",
    query: `How do I set a rate limit on gateway route ${index}?`,
    transformedQuery: `How do I set a rate limit on gateway route ${index}? gateway`,
    createdAt: new Date(base + index).toISOString(),
    durationMs: 4.2,
    found: index % 4 !== 0,
    evidenceStatus: index % 4 !== 0 ? "evidence" : "no_evidence",
    retrievalLayer: "L0+L1",
    fallbackReason: index % 3 === 0 ? "filtered_vector_low_quality" : null,
    candidateCount: 20,
    evidenceCount: 5,
    error: null,
    retrievalDetails: {
      hints: {
        keywords: ["gateway", "rate limit"],
        domains: ["gateway"],
        entities: [],
        titles: ["Guide 1"],
        entries: [{ id: "doc-1", source: "guides/doc-1.md", title: "Guide 1", domain: "gateway" }],
      },
      retrievalLayer: "L0+L1",
      l1Enabled: true,
      attempts: [
        {
          attempt: 1,
          filter: { category: { $eq: "gateway" } },
          l0Filter: { category: { $eq: "gateway" } },
          candidateCount: 20,
          evidenceCount: 5,
          topScore: 0.8,
          outcome: "usable",
          rejectedHits: 0,
          durationMs: 3.1,
        },
      ],
      fallbackReason: null,
      candidateCount: 20,
      evidenceCount: 5,
      relevanceLevel: "high",
      evidence,
      rerank: evidence.map((block, rank) => ({
        rank: rank + 1,
        evidenceKey: block.evidenceKey,
        source: block.source,
        baseScore: block.score,
        finalScore: block.score + 0.2,
        boosts: [{ signal: "keyword", amount: 0.2 }],
      })),
      contextPack: { includedSources: evidence.map((block) => block.source), omittedSources: [], truncated: [] },
    },
  };
}

async function flushInto(name: string, options: { databaseUrl?: string }): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "trace-bench-"));
  try {
    const directory = join(root, "traces");
    const store = createDurableTraceStore({ directory, flushIntervalMs: 0, ...options });
    // Open (and for PGlite create) the database first, so the figure is the flush alone.
    let started = performance.now();
    await store.count();
    const openMs = performance.now() - started;
    const spool = createTraceSpool({ directory });
    started = performance.now();
    for (let index = 0; index < records; index += 1) spool.append(record(index));
    await spool.close();
    const appendMs = performance.now() - started;
    started = performance.now();
    const report = await store.flush();
    const flushMs = performance.now() - started;
    const stored = await store.count();
    await store.prune(new Date(base + records + 1));
    await store.close();
    console.log(
      [
        name.padEnd(22),
        `${Math.round(openMs)}`.padStart(9),
        ((appendMs * 1000) / records).toFixed(1).padStart(10),
        `${report.inserted}`.padStart(9),
        `${Math.round(flushMs)}`.padStart(9),
        `${Math.round(report.inserted / (flushMs / 1000))}`.padStart(11),
        `${stored >= records ? "yes" : "NO"}`.padStart(6),
      ].join(" "),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

console.log(
  `Trace store: ${records} spooled records (~${JSON.stringify(record(1)).length} bytes each) flushed in batches of 500, Node ${process.version}`,
);
console.log(
  [
    "database".padEnd(22),
    "open ms".padStart(9),
    "append µs".padStart(10),
    "inserted".padStart(9),
    "flush ms".padStart(9),
    "records/s".padStart(11),
    "all".padStart(6),
  ].join(" "),
);
await flushInto("PGlite (new folder)", {});
const url = process.env["LOOKUP_KNOWLEDGE_BENCH_DATABASE_URL"] ?? process.env["LOOKUP_KNOWLEDGE_TEST_DATABASE_URL"];
if (url) await flushInto("PostgreSQL", { databaseUrl: url });
else
  console.log(
    "PostgreSQL             skipped: set LOOKUP_KNOWLEDGE_BENCH_DATABASE_URL (or LOOKUP_KNOWLEDGE_TEST_DATABASE_URL) to measure it.",
  );
