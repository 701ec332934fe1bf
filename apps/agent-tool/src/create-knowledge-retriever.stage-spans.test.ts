import { createL0Index } from "@lookup-knowledge/l0-hints";
import { createScriptedSearchPort } from "@lookup-knowledge/search-port/testing";
import type { TraceStore } from "@lookup-knowledge/trace-store";
import { SpanStatusCode, trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKnowledgeRetriever, createRetrieverWithStages } from "./create-knowledge-retriever.js";
import { defaultLookupStages } from "./retriever/lookup-stages.js";
import type { TelemetrySpan, TelemetryTracer } from "./telemetry/telemetry-tracer.js";
import { billingEntries, hit } from "./test/fixtures.js";

// The stage spans of real lookups through the real OpenTelemetry SDK (an in-memory exporter).
// No context manager is registered: the stage spans are parented explicitly, so the tree
// holds across every `await` of the pipeline without one.

/** Names the example's keyword "refund window": the hints make a billing filter (R7). */
const billingQuestion = "Who can extend the refund window for a paid invoice?";
const refunds = [hit("billing/refunds", 0, 0.9, { category: "billing", title: "Refunds" }), hit("billing/refunds", 1, 0.7)];
const memoryStore: TraceStore = { async record() {} };

function byName(spans: ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((span) => span.name === name);
}

function startMs(span: ReadableSpan): number {
  return span.startTime[0] * 1e3 + span.startTime[1] / 1e6;
}

describe("stage spans (OpenTelemetry)", () => {
  let exporter: InMemorySpanExporter;
  let provider: BasicTracerProvider;

  beforeEach(() => {
    exporter = new InMemorySpanExporter();
    provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
  });
  afterEach(async () => {
    trace.disable();
    await provider.shutdown();
  });

  it("issue 35 item 3: one child span per stage: hints, each attempt with its rerank, pack, record", async () => {
    // The filtered first attempt finds nothing; the retry (R8) finds the refunds page.
    const retriever = createKnowledgeRetriever({
      searchPort: createScriptedSearchPort([[], refunds]),
      l0Index: createL0Index(billingEntries),
      traceStore: memoryStore,
      onTraceError: () => {},
    });
    const result = await retriever.lookup(billingQuestion);
    expect(result.found).toBe(true);
    expect(result.retrievalTrace.attempts).toHaveLength(2);

    const spans = exporter.getFinishedSpans();
    const [lookup] = byName(spans, "retrieval") as [ReadableSpan];
    const [hints] = byName(spans, "lookup_knowledge.hints") as [ReadableSpan];
    const [first, second] = byName(spans, "lookup_knowledge.attempt") as [ReadableSpan, ReadableSpan];
    const reranks = byName(spans, "lookup_knowledge.rerank");
    const [pack] = byName(spans, "lookup_knowledge.pack") as [ReadableSpan];
    const [record] = byName(spans, "lookup_knowledge.record") as [ReadableSpan];
    expect(spans.map((span) => span.name).sort()).toEqual(
      [
        "retrieval",
        "lookup_knowledge.hints",
        "lookup_knowledge.attempt",
        "lookup_knowledge.attempt",
        "lookup_knowledge.rerank",
        "lookup_knowledge.rerank",
        "lookup_knowledge.pack",
        "lookup_knowledge.record",
      ].sort(),
    );

    // One trace; every stage a child of the lookup, each rerank a child of its attempt.
    const lookupId = lookup.spanContext().spanId;
    for (const span of spans) expect(span.spanContext().traceId).toBe(lookup.spanContext().traceId);
    for (const stage of [hints, first, second, pack, record]) expect(stage.parentSpanContext?.spanId).toBe(lookupId);
    expect(reranks.map((span) => span.parentSpanContext?.spanId).sort()).toEqual(
      [first.spanContext().spanId, second.spanContext().spanId].sort(),
    );
    // In the order of R1.
    const order = [hints, first, second, pack, record].map(startMs);
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    expect(hints.attributes["lookup_knowledge.hints.domains"]).toEqual(["billing"]);
    expect(first.attributes).toMatchObject({
      "lookup_knowledge.attempt": 1,
      "lookup_knowledge.l0_filtered": true,
      "lookup_knowledge.attempt_outcome": "no_candidates",
      "lookup_knowledge.candidate_count": 0,
    });
    expect(first.attributes["lookup_knowledge.filter"]).toContain("billing");
    expect(second.attributes).toMatchObject({
      "lookup_knowledge.attempt": 2,
      "lookup_knowledge.l0_filtered": false,
      "lookup_knowledge.retrieve_k": retriever.config.retrieveK,
      "lookup_knowledge.attempt_outcome": "usable",
      "lookup_knowledge.candidate_count": 2,
      "lookup_knowledge.evidence_count": result.evidenceBlocks.length,
    });
    expect(pack.attributes).toMatchObject({
      "lookup_knowledge.context_budget": retriever.config.contextBudget,
      "lookup_knowledge.blocks_included": result.found ? result.contextPack.summary.included.length : -1,
    });
    expect(record.attributes["lookup_knowledge.trace_store"]).toBe(true);
    for (const span of spans) expect(span.status.code).toBe(SpanStatusCode.UNSET);
    // Stage spans carry no query or content either.
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain("extend the refund");
  });

  it("issue 35 item 3: a lookup the caller aborts ends its attempt span as failed, and records itself", async () => {
    const controller = new AbortController();
    const retriever = createKnowledgeRetriever({
      searchPort: createScriptedSearchPort(() => {
        controller.abort();
        return { hang: true };
      }),
      onTraceError: () => {},
    });
    await expect(retriever.lookup("Who can issue a refund?", { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
    const spans = exporter.getFinishedSpans();
    const [attempt] = byName(spans, "lookup_knowledge.attempt") as [ReadableSpan];
    expect(attempt.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempt.attributes["error.type"]).toBe("AbortError");
    expect(byName(spans, "lookup_knowledge.record")).toHaveLength(1);
    expect(byName(spans, "retrieval")[0]?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("issue 35 item 3: a stage that throws ends its own span as failed (hints, rerank, pack): no span is left open", async () => {
    const broken = new Error("stage broke");
    const index = createL0Index(billingEntries);
    const cases = [
      {
        stage: "hints",
        l0Index: {
          size: index.size,
          match: () => {
            throw broken;
          },
        },
        stages: defaultLookupStages,
      },
      {
        stage: "rerank",
        l0Index: index,
        stages: {
          ...defaultLookupStages,
          postprocessCandidates: () => {
            throw broken;
          },
        },
      },
      {
        stage: "pack",
        l0Index: index,
        stages: {
          ...defaultLookupStages,
          packContext: () => {
            throw broken;
          },
        },
      },
    ] as const;
    for (const { stage, l0Index, stages } of cases) {
      exporter.reset();
      let started = 0;
      const recording = provider.getTracer("recording");
      const counting: TelemetryTracer = {
        startActiveSpan: (name, options, fn) => recording.startActiveSpan(name, options, fn),
        startSpan: (name, options, context) => {
          started += 1;
          return recording.startSpan(name, options, context as never);
        },
      };
      const retriever = createRetrieverWithStages(
        {
          searchPort: createScriptedSearchPort([refunds]),
          l0Index,
          traceStore: memoryStore,
          onTraceError: () => {},
          telemetry: { tracer: counting },
        },
        stages,
      );
      await expect(retriever.lookup(billingQuestion), stage).rejects.toBe(broken);
      const spans = exporter.getFinishedSpans();
      // Every stage span started was ended (the lookup's own span is started by startActiveSpan).
      expect(spans.length - 1, stage).toBe(started);
      const [failed] = byName(spans, `lookup_knowledge.${stage}`) as [ReadableSpan];
      expect(failed.status.code, stage).toBe(SpanStatusCode.ERROR);
      expect(failed.attributes["error.type"], stage).toBe("Error");
    }
  });

  it("issue 35 item 3: a lookup whose span does not record starts no stage span", async () => {
    // A tracer whose spans do not record (a sampler said no): the stages get no spans object.
    let stageSpans = 0;
    const notRecording: TelemetrySpan = {
      isRecording: () => false,
      setAttributes: () => notRecording,
      setStatus: () => notRecording,
      recordException: () => {},
      end: () => {},
    };
    const tracer: TelemetryTracer = {
      startActiveSpan: (_name, _options, fn) => fn(notRecording) as ReturnType<typeof fn>,
      startSpan: () => {
        stageSpans += 1;
        return notRecording;
      },
    };
    const retriever = createKnowledgeRetriever({
      searchPort: createScriptedSearchPort([[], refunds]),
      l0Index: createL0Index(billingEntries),
      traceStore: memoryStore,
      onTraceError: () => {},
      telemetry: { tracer },
    });
    expect((await retriever.lookup(billingQuestion)).found).toBe(true);
    expect(stageSpans).toBe(0);

    // The same pipeline with recording spans starts all seven: the count above can fail.
    const recording = provider.getTracer("recording");
    let started = 0;
    const counting: TelemetryTracer = {
      startActiveSpan: (name, options, fn) => recording.startActiveSpan(name, options, fn),
      startSpan: (name, options, context) => {
        started += 1;
        return recording.startSpan(name, options, context as never);
      },
    };
    const traced = createKnowledgeRetriever({
      searchPort: createScriptedSearchPort([[], refunds]),
      l0Index: createL0Index(billingEntries),
      traceStore: memoryStore,
      onTraceError: () => {},
      telemetry: { tracer: counting },
    });
    await traced.lookup(billingQuestion);
    expect(started).toBe(7);
  });
});
