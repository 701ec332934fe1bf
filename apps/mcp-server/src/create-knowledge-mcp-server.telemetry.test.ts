import { context, metrics, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectClient } from "./test/connect-client.js";
import { useOneDocumentBase } from "./test/one-document-base.js";

// The tool-call spans of the MCP server through the real OpenTelemetry SDK (in-memory exporter,
// AsyncLocalStorage context manager, W3C trace-context propagator, all registered globally as
// an application would) and the official MCP SDK client sending `_meta.traceparent`.

const base = useOneDocumentBase(
  "mcp-telemetry-",
  "---\ntitle: Refunds\ncategory: billing\n---\n# Refunds\n\nA billing admin can refund a paid invoice within 30 days of payment.\n",
);
const question = "Who can refund a paid invoice?";
const callerTraceId = "4bf92f3577b34da6a3ce929d0e0e4736";
const callerSpanId = "00f067aa0ba902b7";
const traceparent = `00-${callerTraceId}-${callerSpanId}-01`;

describe("MCP tool-call spans (OpenTelemetry)", () => {
  let exporter: InMemorySpanExporter;
  let provider: BasicTracerProvider;
  const contextManager = new AsyncLocalStorageContextManager();

  beforeEach(() => {
    exporter = new InMemorySpanExporter();
    provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
    context.setGlobalContextManager(contextManager.enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  afterEach(async () => {
    trace.disable();
    context.disable();
    propagation.disable();
    await provider.shutdown();
  });

  function named(name: string): ReadableSpan[] {
    return exporter.getFinishedSpans().filter((span) => span.name === name);
  }

  it("issue 35 item 3: a tools/call with _meta.traceparent is a SERVER span in the caller's trace, parent of the retrieval span", async () => {
    const knowledgeBase = base.knowledgeBase();
    await using client = await connectClient({ retriever: knowledgeBase.retriever, store: knowledgeBase.store });
    const result = await client.callTool({
      name: "lookup_knowledge",
      arguments: { query: question },
      _meta: { traceparent, tracestate: "rojo=00f067aa0ba902b7" },
    });
    expect(result.isError).not.toBe(true);

    const [call] = named("tools/call lookup_knowledge") as [ReadableSpan];
    expect(call.kind).toBe(SpanKind.SERVER);
    expect(call.instrumentationScope.name).toBe("@lookup-knowledge/mcp-server");
    expect(call.spanContext().traceId).toBe(callerTraceId);
    expect(call.parentSpanContext?.spanId).toBe(callerSpanId);
    expect(call.parentSpanContext?.isRemote).toBe(true);
    expect(call.spanContext().traceState?.get("rojo")).toBe("00f067aa0ba902b7");
    expect(call.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "lookup_knowledge",
      "jsonrpc.request.id": expect.any(String),
    });
    expect(call.status.code).toBe(SpanStatusCode.UNSET);

    // The lookup's span and its stages are in the same trace, under the tool call.
    const [retrieval] = named("retrieval") as [ReadableSpan];
    expect(retrieval.spanContext().traceId).toBe(callerTraceId);
    expect(retrieval.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    expect(retrieval.attributes["gen_ai.data_source.id"]).toBe("data");
    const hints = named("lookup_knowledge.hints");
    expect(hints.map((span) => span.parentSpanContext?.spanId)).toEqual([retrieval.spanContext().spanId]);
    for (const span of exporter.getFinishedSpans()) expect(span.spanContext().traceId).toBe(callerTraceId);
  });

  it("issue 35 item 3: with _meta context the ambient span is a link; without it the ambient span is the parent", async () => {
    const knowledgeBase = base.knowledgeBase();
    await using client = await connectClient({ retriever: knowledgeBase.retriever, store: knowledgeBase.store });
    const application = trace.getTracer("the-application");
    // The in-memory transport hands the message over inside the caller's context: it is the
    // server's ambient context, as an HTTP server span would be.
    const ambient = await application.startActiveSpan("transport", async (span) => {
      await client.callTool({ name: "lookup_knowledge", arguments: { query: question }, _meta: { traceparent } });
      await client.callTool({ name: "lookup_knowledge", arguments: { query: question } });
      span.end();
      return span.spanContext();
    });
    const [joined, plain] = named("tools/call lookup_knowledge") as [ReadableSpan, ReadableSpan];
    expect(joined.spanContext().traceId).toBe(callerTraceId);
    expect(joined.links.map((link) => link.context.spanId)).toEqual([ambient.spanId]);
    expect(plain.spanContext().traceId).toBe(ambient.traceId);
    expect(plain.parentSpanContext?.spanId).toBe(ambient.spanId);
    expect(plain.links).toEqual([]);
  });

  it("issue 35 item 3: a tool error is error.type tool_error; an unknown tool is its JSON-RPC code; a bad traceparent starts a new trace", async () => {
    const knowledgeBase = base.knowledgeBase();
    await using client = await connectClient({ retriever: knowledgeBase.retriever, store: knowledgeBase.store });
    const blank = await client.callTool({ name: "lookup_knowledge", arguments: { query: " \u0007 " }, _meta: { traceparent: "00-zz-1" } });
    expect(blank.isError).toBe(true);
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool/);

    const [failed] = named("tools/call lookup_knowledge") as [ReadableSpan];
    expect(failed.attributes["error.type"]).toBe("tool_error");
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.parentSpanContext).toBeUndefined();
    const [unknown] = named("tools/call") as [ReadableSpan];
    expect(unknown.attributes).toMatchObject({ "error.type": "-32602", "rpc.response.status_code": "-32602" });
    expect(unknown.attributes).not.toHaveProperty("gen_ai.tool.name");
    expect(unknown.status).toMatchObject({ code: SpanStatusCode.ERROR, message: expect.stringContaining("Unknown tool") });
  });

  it("issue 35 item 3: each tools/call is one mcp.server.operation.duration measurement, in seconds, without ids", async () => {
    const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
    const meterProvider = new MeterProvider({ readers: [reader] });
    metrics.setGlobalMeterProvider(meterProvider);
    try {
      const knowledgeBase = base.knowledgeBase();
      await using client = await connectClient({ retriever: knowledgeBase.retriever, store: knowledgeBase.store });
      const wallStart = performance.now();
      await client.callTool({ name: "lookup_knowledge", arguments: { query: question } });
      await client.callTool({ name: "lookup_knowledge", arguments: { query: " \u0007 " } });
      const wallSeconds = (performance.now() - wallStart) / 1000;
      await reader.forceFlush();
      const collected: MetricData[] =
        metricExporter
          .getMetrics()
          .at(-1)
          ?.scopeMetrics.flatMap((scope) => scope.metrics) ?? [];
      const duration = collected.find((metric) => metric.descriptor.name === "mcp.server.operation.duration");
      expect(duration?.descriptor.unit).toBe("s");
      const points = (duration?.dataPoints ?? []).map((point) => ({
        attributes: point.attributes,
        value: point.value as { count: number; sum: number },
      }));
      const call = { "mcp.method.name": "tools/call", "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup_knowledge" };
      expect(points.map((point) => [point.attributes, point.value.count])).toEqual([
        [call, 1],
        [{ ...call, "error.type": "tool_error" }, 1],
      ]);
      const sum = points.reduce((total, point) => total + point.value.sum, 0);
      expect(sum).toBeGreaterThan(0);
      expect(sum).toBeLessThanOrEqual(wallSeconds);
    } finally {
      metrics.disable();
      await meterProvider.shutdown();
    }
  });
});
