import type { KnowledgeEntry, SearchHit } from "@lookup-knowledge/core";
import { createL0Index } from "@lookup-knowledge/l0-hints";
import type { KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import type { TraceStore } from "@lookup-knowledge/trace-store";
import { context, metrics, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, type ReadableSpan, SimpleSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { createKnowledgeRetriever } from "../create-knowledge-retriever.js";

// What OpenTelemetry costs a lookup (issue 35 item 3): the same lookups with the API installed
// and no provider registered (telemetry off), with a tracer provider whose exporter drops the
// spans, and with a meter provider too. A port answers at once from prepared hits, so the
// figures are the pipeline's own time plus telemetry, per lookup, in milliseconds.
// Run: node apps/agent-tool/dist/bench/telemetry-overhead.js

const words = "gateway route plugin upstream rate limit consumer token certificate header retry timeout cluster node".split(" ");
const hits: SearchHit[] = Array.from({ length: 20 }, (_, index) => ({
  id: `doc-${Math.floor(index / 3)}#chunk-${index % 3}`,
  content: `${words.join(" ")} ${index}. `.repeat(12),
  score: 0.92 - index * 0.02,
  metadata: {
    docId: `doc-${Math.floor(index / 3)}`,
    chunkIndex: index % 3,
    source: `guides/doc-${Math.floor(index / 3)}.md`,
    title: `Guide ${index}`,
    category: index % 2 === 0 ? "gateway" : "operations",
  },
}));
const entries: KnowledgeEntry[] = Array.from({ length: 2000 }, (_, index) => ({
  id: `entry-${index}`,
  source: `guides/doc-${index}.md`,
  title: `Guide ${index} ${words[index % words.length]}`,
  keywords: [words[index % words.length] ?? "x"],
  domain: index % 2 === 0 ? "gateway" : "operations",
}));
const searchPort: KnowledgeSearchPort = { search: async () => hits };
const store: TraceStore = { async record() {} };
const query = "How do I set a rate limit on a gateway route with a retry timeout?";

class DroppingExporter implements SpanExporter {
  spans = 0;
  export(batch: ReadableSpan[], done: (result: { code: 0 }) => void): void {
    this.spans += batch.length;
    done({ code: 0 });
  }
  async shutdown(): Promise<void> {}
}

class IdleReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

async function measure(name: string): Promise<void> {
  const retriever = createKnowledgeRetriever({ searchPort, l0Index: createL0Index(entries), traceStore: store, config: { retrieveK: 20 } });
  for (let index = 0; index < 500; index += 1) await retriever.lookup(query);
  const samples: number[] = [];
  for (let index = 0; index < 3000; index += 1) {
    const started = performance.now();
    await retriever.lookup(query);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (fraction: number) => samples[Math.min(samples.length - 1, Math.floor(fraction * samples.length))] ?? Number.NaN;
  console.log(`${name.padEnd(34)} median ${at(0.5).toFixed(4)} ms   p95 ${at(0.95).toFixed(4)} ms`);
}

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
await measure("off (no provider registered)");
const exporter = new DroppingExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
await measure("tracer provider (spans dropped)");
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new IdleReader()] }));
await measure("tracer and meter providers");
console.log(`spans exported: ${exporter.spans} (${(exporter.spans / 7000).toFixed(1)} per lookup)`);
