import { createL0Index } from "@lookup-knowledge/l0-hints";
import { createScriptedSearchPort } from "@lookup-knowledge/search-port/testing";
import type { TraceStore } from "@lookup-knowledge/trace-store";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { expect, it } from "vitest";
import { createKnowledgeRetriever } from "./create-knowledge-retriever.js";
import { openTelemetryRegistered } from "./telemetry/open-telemetry-registered.js";
import { billingEntries, hit } from "./test/fixtures.js";

// A tracer given as the `telemetry.tracer` option, from a provider that was never registered:
// no OpenTelemetry global exists in this file's process, and no context manager either.

it("issue 36 item 5: with a telemetry.tracer and nothing registered globally, the stage spans are still children of the lookup's span", async () => {
  expect(openTelemetryRegistered()).toBe(false);
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const memoryStore: TraceStore = { async record() {} };
  const retriever = createKnowledgeRetriever({
    searchPort: createScriptedSearchPort([[hit("billing/refunds", 0, 0.9, { category: "billing", title: "Refunds" })]]),
    l0Index: createL0Index(billingEntries),
    traceStore: memoryStore,
    onTraceError: () => {},
    telemetry: { tracer: provider.getTracer("explicit") },
  });
  await retriever.lookup("Who can extend the refund window for a paid invoice?");
  const spans: ReadableSpan[] = exporter.getFinishedSpans();
  const lookup = spans.find((span) => span.name === "retrieval");
  const stages = spans.filter((span) => span.name.startsWith("lookup_knowledge."));
  expect(lookup).toBeDefined();
  expect(stages.length).toBeGreaterThan(0);
  for (const stage of stages) {
    expect([stage.name, stage.spanContext().traceId]).toEqual([stage.name, lookup?.spanContext().traceId]);
  }
  expect(stages.filter((stage) => stage.parentSpanContext === undefined).map((stage) => stage.name)).toEqual([]);
  await provider.shutdown();
});
