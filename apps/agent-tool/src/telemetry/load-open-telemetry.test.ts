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
import { openTelemetryRegistered } from "./open-telemetry-registered.js";
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

  it("issue 36: nothing imports @opentelemetry/api while no OpenTelemetry global is registered, and a later registration is seen", async () => {
    let imports = 0;
    let registered = false;
    const loader = createOpenTelemetryLoader(
      () => {
        imports += 1;
        return import("@opentelemetry/api");
      },
      () => registered,
    );
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
    const inner = createKnowledgeRetriever({
      searchPort: createScriptedSearchPort([[hit("billing/refunds", 0, 0.9, { category: "billing" })]]),
      onTraceError: () => {},
      telemetry: { tracer: new BasicTracerProvider().getTracer("unused") },
    });
    const lookup = traceLookups(parseTelemetryOptions(undefined), resolveRagConfig({}), inner.lookup, loader);
    expect((await lookup("Who can issue a refund?")).found).toBe(true);
    expect(imports).toBe(0);
    expect(exporter.getFinishedSpans()).toEqual([]);
    // Once the loader is wanted (the process-wide one: an SDK registered a global), the next lookup imports it and is traced.
    registered = true;
    expect((await lookup("Who can issue a refund?")).found).toBe(true);
    expect(imports).toBe(1);
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(["retrieval"]);
    await provider.shutdown();
  });

  it("issue 36: openTelemetryRegistered reads the API's global registry without loading the API", () => {
    const key = Symbol.for("opentelemetry.js.api.1");
    const globals = globalThis as Record<symbol, unknown>;
    const saved = globals[key];
    try {
      delete globals[key];
      expect(openTelemetryRegistered()).toBe(false);
      expect(openTelemetry.wanted?.()).toBe(false);
      // What the API's registerGlobal leaves there (the real one: this file registers a tracer provider above).
      trace.setGlobalTracerProvider(new BasicTracerProvider());
      expect(openTelemetryRegistered()).toBe(true);
      expect(openTelemetry.wanted?.()).toBe(true);
    } finally {
      globals[key] = saved;
    }
  });
});
