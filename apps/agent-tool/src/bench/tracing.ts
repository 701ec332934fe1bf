import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createL0Index } from "@lookup-knowledge/l0-hints";
import { createInMemorySearchPort } from "@lookup-knowledge/search-port/testing";
import { buildToolInvocationRecord, createTraceSpool } from "@lookup-knowledge/trace-store";
import { createKnowledgeRetriever } from "../create-knowledge-retriever.js";

// `pnpm bench`: what tracing costs a lookup (building the record and appending it to the
// spool, which is all a lookup does for its trace). The wall time of whole CLI commands is
// apps/cli's bench.

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1))] ?? Number.NaN;
}

function row(name: string, samples: number[], unit: string, digits: number): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `${name.padEnd(54)} ${percentile(sorted, 0.5).toFixed(digits).padStart(9)} ${percentile(sorted, 0.95).toFixed(digits).padStart(9)}  ${unit}`;
}

const root = mkdtempSync(join(tmpdir(), "tracing-bench-"));
try {
  // 1. Tracing on the lookup's path, for a lookup that found 5 blocks out of 20 candidates.
  const hits = Array.from({ length: 20 }, (_, index) => ({
    id: `doc-${Math.floor(index / 2)}#chunk-${index % 2}`,
    content: `Gateway route ${index}: the rate limit plugin counts requests per consumer token before the upstream is called. `.repeat(6),
    score: 0.9 - index * 0.02,
    metadata: {
      docId: `doc-${Math.floor(index / 2)}`,
      chunkIndex: index % 2,
      source: `guides/doc-${Math.floor(index / 2)}.md`,
      title: `Guide ${index}`,
      category: "gateway",
    },
  }));
  const retriever = createKnowledgeRetriever({
    searchPort: createInMemorySearchPort(hits),
    l0Index: createL0Index([{ id: "doc-1", source: "guides/doc-1.md", title: "Guide 1", keywords: ["rate limit"], domain: "gateway" }]),
  });
  const result = await retriever.lookup("How do I set a rate limit on a gateway route?");
  const spool = createTraceSpool({ directory: join(root, "traces") });
  const samples: number[] = [];
  for (let index = 0; index < 6000; index += 1) {
    const started = performance.now();
    spool.append(buildToolInvocationRecord({ result, startedAt: new Date(), durationMs: 3 }));
    if (index >= 1000) samples.push(performance.now() - started);
  }
  await spool.close();

  console.log(`Tracing on the lookup path, Node ${process.version}`);
  console.log(`${"what".padEnd(54)} ${"median".padStart(9)} ${"p95".padStart(9)}`);
  console.log(row("tracing per lookup: build record + spool append (5000)", samples, "ms", 4));
} finally {
  rmSync(root, { recursive: true, force: true });
}
