import { createRetrieverTool } from "@langchain/classic/tools/retriever";
import { Document } from "@langchain/core/documents";
import { BaseRetriever } from "@langchain/core/retrievers";
import type { KnowledgeEntry, SearchHit } from "@lookup-knowledge/core";
import { createL0Index } from "@lookup-knowledge/l0-hints";
import type { KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import type { TraceStore } from "@lookup-knowledge/trace-store";
import { createKnowledgeRetriever } from "../create-knowledge-retriever.js";
import { createLookupKnowledgeTool } from "../create-lookup-knowledge-tool.js";

// `pnpm bench`: the pipeline's own overhead per lookup (everything but the port call),
// with a port that answers at once from prepared hits, beside LangChain's retriever tool
// over the same hits. Figures are per lookup, in milliseconds.

const words = (
  "gateway route plugin upstream rate limit consumer token certificate header retry timeout " +
  "cluster node replica region latency cache index query schema tenant invoice refund webhook"
).split(" ");

function sentence(seed: number, length: number): string {
  const out: string[] = [];
  let state = seed;
  for (let index = 0; index < length; index += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out.push(words[state % words.length] ?? "node");
  }
  return `${out.join(" ")}.`;
}

function makeHits(count: number): SearchHit[] {
  return Array.from({ length: count }, (_, index) => {
    const docIndex = Math.floor(index / 3);
    return {
      id: `doc-${docIndex}#chunk-${index % 3}`,
      content: Array.from({ length: 6 }, (_, part) => sentence(index * 7 + part, 16)).join(" "),
      score: 0.92 - index * (0.6 / count),
      metadata: {
        docId: `doc-${docIndex}`,
        chunkIndex: index % 3,
        source: `guides/doc-${docIndex}.md`,
        title: `Guide ${docIndex} ${words[docIndex % words.length]}`,
        breadcrumb: `Guide ${docIndex} > ${words[(docIndex + 3) % words.length]} > Details`,
        category: docIndex % 2 === 0 ? "gateway" : "operations",
      },
    };
  });
}

const entries: KnowledgeEntry[] = Array.from({ length: 2000 }, (_, index) => ({
  id: `entry-${index}`,
  source: `guides/doc-${index}.md`,
  title: `Guide ${index} ${words[index % words.length]}`,
  keywords: [words[index % words.length] ?? "x", `${words[(index + 1) % words.length]} ${words[(index + 2) % words.length]}`],
  domain: index % 2 === 0 ? "gateway" : "operations",
}));

const query = "How do I set a rate limit on a gateway route with a retry timeout?";
const warmup = 300;
const iterations = 2000;

interface Row {
  name: string;
  retrieveK: number;
  median: number;
  p95: number;
}

function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

async function measure(name: string, retrieveK: number, run: () => Promise<unknown>, portTime: () => number): Promise<Row> {
  for (let index = 0; index < warmup; index += 1) await run();
  const samples: number[] = [];
  for (let index = 0; index < iterations; index += 1) {
    const before = portTime();
    const started = performance.now();
    await run();
    samples.push(performance.now() - started - (portTime() - before));
  }
  samples.sort((a, b) => a - b);
  return { name, retrieveK, median: percentile(samples, 0.5), p95: percentile(samples, 0.95) };
}

// The record is built on the lookup's path; where it is written is the store's I/O, so the
// bench writes it nowhere (an in-memory store would also grow the heap run after run).
let recordsWritten = 0;
const countingStore: TraceStore = {
  async record() {
    recordsWritten += 1;
  },
};

const rows: Row[] = [];
for (const retrieveK of [20, 100]) {
  const hits = makeHits(retrieveK);
  let portMs = 0;
  const searchPort: KnowledgeSearchPort = {
    async search() {
      const started = performance.now();
      const answer = hits;
      portMs += performance.now() - started;
      return answer;
    },
  };
  const retriever = createKnowledgeRetriever({
    searchPort,
    l0Index: createL0Index(entries),
    traceStore: countingStore,
    config: { retrieveK, returnN: 5 },
  });
  const lookupTool = createLookupKnowledgeTool(retriever);
  rows.push(
    await measure(
      "lookup-knowledge retriever.lookup",
      retrieveK,
      () => retriever.lookup(query),
      () => portMs,
    ),
  );
  rows.push(
    await measure(
      "lookup-knowledge tool.invoke",
      retrieveK,
      () => lookupTool.invoke({ query }),
      () => portMs,
    ),
  );

  const documents = hits.map((hit) => new Document({ pageContent: hit.content, metadata: hit.metadata }));
  class PreparedRetriever extends BaseRetriever {
    override lc_namespace = ["bench"];
    override async _getRelevantDocuments(): Promise<Document[]> {
      const started = performance.now();
      const answer = documents;
      portMs += performance.now() - started;
      return answer;
    }
  }
  const peerTool = createRetrieverTool(new PreparedRetriever(), { name: "search_docs", description: "Search the docs." });
  rows.push(
    await measure(
      "LangChain createRetrieverTool.invoke (peer)",
      retrieveK,
      () => peerTool.invoke({ query }),
      () => portMs,
    ),
  );
}

console.log(`Pipeline overhead per lookup (port time excluded), ${iterations} runs after ${warmup} warm-up, Node ${process.version}`);
console.log(["what".padEnd(46), "retrieve-k".padStart(10), "median ms".padStart(10), "p95 ms".padStart(10)].join(" "));
for (const row of rows) {
  console.log(
    [row.name.padEnd(46), String(row.retrieveK).padStart(10), row.median.toFixed(3).padStart(10), row.p95.toFixed(3).padStart(10)].join(
      " ",
    ),
  );
}
console.log(`${recordsWritten} trace records built and handed to the store.`);
console.log("Note: the peer row joins all retrieve-k documents into one string: no identity, dedup, caps, rerank, budget or trace.");
