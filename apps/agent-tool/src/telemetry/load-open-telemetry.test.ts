import { resolveRagConfig } from "@lookup-knowledge/core";
import { createL0Index } from "@lookup-knowledge/l0-hints";
import { createScriptedSearchPort } from "@lookup-knowledge/search-port/testing";
import { trace } from "@opentelemetry/api";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { createKnowledgeRetriever } from "../create-knowledge-retriever.js";
import { billingEntries, hit } from "../test/fixtures.js";
import { createOpenTelemetryLoader, openTelemetry } from "./load-open-telemetry.js";
import { parseTelemetryOptions } from "./telemetry-options.js";
import { traceLookups } from "./trace-lookup.js";

describe("loading @opentelemetry/api", () => {
  afterEach(() => {
    trace.disable();
  });

  it("issue 12: the optional peer is imported once, lazily, and gives the global tracer provider", async () => {
    let imports = 0;
    const loader = createOpenTelemetryLoader(() => {
      imports += 1;
      return import("@opentelemetry/api");
    });
    expect(imports).toBe(0);
    expect(loader.settled()).toBe(false);
    const [first, second] = await Promise.all([loader.load(), loader.load()]);
    expect(imports).toBe(1);
    expect(first).toBe(second);
    expect(loader.loaded()).toBe(first);
    expect(loader.settled()).toBe(true);
    expect(typeof first?.trace.getTracer).toBe("function");
    expect((await openTelemetry.load())?.trace).toBe(trace);
  });

  it("issue 12: without @opentelemetry/api installed, tracing is a no-op forever and lookups work", async () => {
    let imports = 0;
    const missing = createOpenTelemetryLoader(() => {
      imports += 1;
      return Promise.reject(Object.assign(new Error("Cannot find package '@opentelemetry/api'"), { code: "ERR_MODULE_NOT_FOUND" }));
    });
    // A provider is registered, so only the failed import keeps the spans away.
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
    // The lookup being wrapped: a real retriever whose own spans go to a tracer of their own.
    const innerProvider = new BasicTracerProvider();
    const inner = createKnowledgeRetriever({
      searchPort: createScriptedSearchPort([[hit("billing/refunds", 0, 0.9, { category: "billing" })]]),
      l0Index: createL0Index(billingEntries),
      onTraceError: () => {},
      telemetry: { tracer: innerProvider.getTracer("inner") },
    });
    const config = resolveRagConfig({});
    const settings = parseTelemetryOptions(undefined);

    const untraced = traceLookups(settings, config, inner.lookup, missing);
    expect((await untraced("Who can issue a refund?")).found).toBe(true);
    expect((await untraced("Who can issue a refund?")).found).toBe(true);
    expect(await missing.load()).toBeUndefined();
    expect(missing.settled()).toBe(true);
    expect(imports).toBe(1);
    expect(exporter.getFinishedSpans()).toEqual([]);

    // The same wrapper over the real import records the span: the check above can fail.
    const traced = traceLookups(settings, config, inner.lookup, openTelemetry);
    expect((await traced("Who can issue a refund?")).found).toBe(true);
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(["retrieval"]);
    await provider.shutdown();
    await innerProvider.shutdown();
  });

  it("issue 12, issue 35 item 3: the tracer and meter options need no import of @opentelemetry/api", async () => {
    const missing = createOpenTelemetryLoader(() => Promise.reject(new Error("Cannot find package '@opentelemetry/api'")));
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const inner = createKnowledgeRetriever({
      searchPort: createScriptedSearchPort([[hit("billing/refunds", 0, 0.9, { category: "billing" })]]),
      onTraceError: () => {},
      telemetry: { tracer: new BasicTracerProvider().getTracer("unused") },
    });
    const meterProvider = new MeterProvider();
    const settings = parseTelemetryOptions({
      tracer: provider.getTracer("own"),
      meter: meterProvider.getMeter("own"),
      dataSourceId: "billing-kb",
    });
    const lookup = traceLookups(settings, resolveRagConfig({}), inner.lookup, missing);
    const result = await lookup("Who can issue a refund?");
    expect(result.found).toBe(true);
    expect(missing.settled()).toBe(false);
    expect(
      exporter
        .getFinishedSpans()
        .map((span) => [span.name, span.attributes["gen_ai.data_source.id"], span.attributes["gen_ai.retrieval.documents"]]),
    ).toEqual([["retrieval", "billing-kb", JSON.stringify([{ id: "billing/refunds#chunk-0", score: 0.9 }])]]);
    await provider.shutdown();
    await meterProvider.shutdown();
  });
});
