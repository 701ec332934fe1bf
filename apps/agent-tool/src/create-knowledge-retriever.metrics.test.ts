import { InvalidQueryError } from "@lookup-knowledge/core";
import { createScriptedSearchPort } from "@lookup-knowledge/search-port/testing";
import { metrics } from "@opentelemetry/api";
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { afterEach, describe, expect, it } from "vitest";
import { createKnowledgeRetriever } from "./create-knowledge-retriever.js";
import { hit } from "./test/fixtures.js";

// The retriever's metrics through the real OpenTelemetry metrics SDK: a meter provider with an
// in-memory exporter behind a reader that is flushed by hand, registered globally as an
// application would.

function inMemoryMeterProvider() {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({ readers: [reader] });
  return {
    provider,
    async collect(): Promise<MetricData[]> {
      await reader.forceFlush();
      const exported = exporter.getMetrics();
      return exported.at(-1)?.scopeMetrics.flatMap((scope) => scope.metrics) ?? [];
    },
  };
}

function metricNamed(collected: MetricData[], name: string): MetricData {
  const metric = collected.find((candidate) => candidate.descriptor.name === name);
  expect(metric, name).toBeDefined();
  return metric as MetricData;
}

describe("lookup metrics (OpenTelemetry)", () => {
  afterEach(() => {
    metrics.disable();
  });

  it("issue 35 item 3: gen_ai.retrieval.duration in seconds and a found/refused/error counter", async () => {
    const { provider, collect } = inMemoryMeterProvider();
    metrics.setGlobalMeterProvider(provider);
    const answers = [[hit("billing/refunds", 0, 0.9)], []];
    const retriever = createKnowledgeRetriever({
      searchPort: createScriptedSearchPort((_request, call) => answers[call] ?? []),
      onTraceError: () => {},
      telemetry: { dataSourceId: "billing-kb" },
    });
    const wallStart = performance.now();
    expect((await retriever.lookup("Who can issue a refund?")).found).toBe(true);
    expect((await retriever.lookup("How do I run payroll in Germany?")).found).toBe(false);
    await expect(retriever.lookup(" \u0007 ")).rejects.toSatisfy((error) => InvalidQueryError.isInstance(error));
    const wallSeconds = (performance.now() - wallStart) / 1000;

    const collected = await collect();
    const duration = metricNamed(collected, "gen_ai.retrieval.duration");
    expect(duration.descriptor.unit).toBe("s");
    expect(duration.dataPointType).toBe(DataPointType.HISTOGRAM);
    const base = { "gen_ai.operation.name": "retrieval", "gen_ai.data_source.id": "billing-kb" };
    const points = duration.dataPoints.map((point) => ({
      attributes: point.attributes,
      value: point.value as { count: number; sum: number; buckets: { boundaries: number[] } },
    }));
    const ok = points.find((point) => point.attributes["error.type"] === undefined);
    const failed = points.find((point) => point.attributes["error.type"] === "invalid_query");
    expect(ok?.attributes).toEqual(base);
    expect(ok?.value.count).toBe(2);
    expect(failed?.attributes).toEqual({ ...base, "error.type": "invalid_query" });
    expect(failed?.value.count).toBe(1);
    // Seconds: the recorded durations sum to more than nothing and less than the wall time
    // around the three lookups (milliseconds would sum to about a thousand times more).
    const sum = (ok?.value.sum ?? 0) + (failed?.value.sum ?? 0);
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThanOrEqual(wallSeconds);
    expect(ok?.value.buckets.boundaries.slice(0, 4)).toEqual([0.001, 0.0025, 0.005, 0.01]);

    const lookups = metricNamed(collected, "lookup_knowledge.lookups");
    expect(lookups.descriptor.unit).toBe("{lookup}");
    expect(lookups.dataPointType).toBe(DataPointType.SUM);
    const byOutcome = Object.fromEntries(lookups.dataPoints.map((point) => [point.attributes["lookup_knowledge.outcome"], point.value]));
    expect(byOutcome).toEqual({ found: 1, refused: 1, error: 1 });
    for (const point of lookups.dataPoints) expect(point.attributes).toMatchObject(base);
    await provider.shutdown();
  });

  it("issue 35 item 3: a meter provider registered after the retriever was made gets the next lookups", async () => {
    const retriever = createKnowledgeRetriever({
      searchPort: createScriptedSearchPort([[hit("billing/refunds", 0, 0.9)]]),
      onTraceError: () => {},
    });
    await retriever.lookup("Who can issue a refund?");
    const { provider, collect } = inMemoryMeterProvider();
    metrics.setGlobalMeterProvider(provider);
    await retriever.lookup("Who can issue a refund?");
    const lookups = metricNamed(await collect(), "lookup_knowledge.lookups");
    // Only the lookup after the registration; a bare port is named by its tool.
    expect(lookups.dataPoints.map((point) => [point.attributes, point.value])).toEqual([
      [{ "gen_ai.operation.name": "retrieval", "gen_ai.data_source.id": "lookup_knowledge", "lookup_knowledge.outcome": "found" }, 1],
    ]);
    await provider.shutdown();
  });

  it("issue 35 item 3: the meter option is used instead of the global meter", async () => {
    const global = inMemoryMeterProvider();
    metrics.setGlobalMeterProvider(global.provider);
    const own = inMemoryMeterProvider();
    const retriever = createKnowledgeRetriever({
      searchPort: createScriptedSearchPort([[hit("billing/refunds", 0, 0.9)]]),
      onTraceError: () => {},
      telemetry: { meter: own.provider.getMeter("own") },
    });
    await retriever.lookup("Who can issue a refund?");
    expect(metricNamed(await own.collect(), "lookup_knowledge.lookups").dataPoints).toHaveLength(1);
    expect((await global.collect()).map((metric) => metric.descriptor.name)).toEqual([]);
    expect(() => createKnowledgeRetriever({ searchPort: createScriptedSearchPort([]), telemetry: { meter: {} as never } })).toThrow(
      /telemetry\.meter.*createHistogram/,
    );
    await global.provider.shutdown();
    await own.provider.shutdown();
  });
});
