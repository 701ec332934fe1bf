import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { emptyL0Hints, InvalidQueryError, type LookupResult } from "@lookup-knowledge/core";
import type { L0Index } from "@lookup-knowledge/l0-hints";
import { context, SpanKind, SpanStatusCode, trace, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ATTR_ERROR_TYPE } from "@opentelemetry/semantic-conventions";
import {
  ATTR_GEN_AI_DATA_SOURCE_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_RETRIEVAL_DOCUMENTS,
  ATTR_GEN_AI_RETRIEVAL_QUERY_TEXT,
  GEN_AI_OPERATION_NAME_VALUE_RETRIEVAL,
} from "@opentelemetry/semantic-conventions/incubating";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createKnowledgeRetriever, type KnowledgeRetrieverOptions } from "./create-knowledge-retriever.js";
import { ingestIntoLocalIndex } from "./ingest-into-local-index.js";
import { openKnowledgeBase } from "./open-knowledge-base.js";
import { type LocalKnowledgeBase, openLocalKnowledgeBase } from "./open-local-knowledge-base.js";
import type { TelemetryTracer } from "./telemetry/telemetry-tracer.js";
import { exampleKnowledgeBase } from "./test/example-knowledge-base.js";

// The spans of real lookups over the example knowledge base, through the real OpenTelemetry
// SDK: an in-memory exporter behind a simple span processor on a basic tracer provider,
// registered globally as an application would.

const question = "Who can issue a refund for a paid invoice?";
/** Names the example's keyword "refund window", specific enough to make the billing filter (R7). */
const billingQuestion = "Who can extend the refund window for a paid invoice?";
const noTenant = { tenant: { $eq: "nobody" } };

function documentsOf(span: ReadableSpan): Array<{ id: string; score?: number; content?: string }> {
  const value = span.attributes[ATTR_GEN_AI_RETRIEVAL_DOCUMENTS];
  expect(typeof value).toBe("string");
  return JSON.parse(value as string) as Array<{ id: string; score?: number; content?: string }>;
}

/** The lookups' own spans, without their stage spans (those are create-knowledge-retriever.stage-spans.test.ts's). */
function retrievalSpans(exporter: InMemorySpanExporter): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((span) => span.name === "retrieval");
}

function expectedDocuments(result: LookupResult): Array<{ id: string; score?: number }> {
  return result.evidenceBlocks.map((block) => ({ id: block.evidenceKey, ...(block.score === undefined ? {} : { score: block.score }) }));
}

describe("lookup spans (OpenTelemetry)", () => {
  let dataDirectory: string;
  let knowledgeBase: LocalKnowledgeBase;
  let exporter: InMemorySpanExporter;
  let provider: BasicTracerProvider;
  const contextManager = new AsyncLocalStorageContextManager();

  function retriever(options: Partial<KnowledgeRetrieverOptions> = {}) {
    return createKnowledgeRetriever({
      searchPort: knowledgeBase.searchPort,
      l0Index: knowledgeBase.l0Index,
      onTraceError: () => {},
      ...options,
    });
  }

  beforeAll(async () => {
    dataDirectory = await mkdtemp(join(tmpdir(), "lookup-spans-"));
    await ingestIntoLocalIndex({ root: exampleKnowledgeBase, dataDirectory });
    knowledgeBase = await openLocalKnowledgeBase({ dataDirectory });
  });
  afterAll(async () => {
    await knowledgeBase.close();
    await rm(dataDirectory, { recursive: true, force: true });
  });

  beforeEach(() => {
    exporter = new InMemorySpanExporter();
    provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
    context.setGlobalContextManager(contextManager.enable());
  });
  afterEach(async () => {
    trace.disable();
    context.disable();
    await provider.shutdown();
  });

  // The README example ("OpenTelemetry"), with an in-memory exporter.
  it("issue 12: one span per lookup, with the GenAI retrieval attributes and ours", async () => {
    const lookups = retriever({ telemetry: { dataSourceId: "example-kb" }, config: { retrieveK: 12, returnN: 4 } });
    const result = await lookups.lookup(question);
    expect(result.found).toBe(true);

    const spans = retrievalSpans(exporter);
    expect(spans).toHaveLength(1);
    const [span] = spans as [ReadableSpan];
    expect(span.name).toBe("retrieval");
    expect(span.attributes["gen_ai.data_source.id"]).toBe("example-kb");
    expect(span.kind).toBe(SpanKind.INTERNAL);
    // Issue 35 item 3: the sampling parameter of a model request is not reused for a retrieval width.
    expect(span.attributes).not.toHaveProperty("gen_ai.request.top_k");
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.instrumentationScope.name).toBe("@lookup-knowledge/agent-tool");
    expect(span.attributes).toMatchObject({
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_RETRIEVAL,
      [ATTR_GEN_AI_DATA_SOURCE_ID]: "example-kb",
      "gen_ai.retrieval.top_k": 4,
      "lookup_knowledge.retrieve_k": 12,
      "lookup_knowledge.attempts": result.retrievalTrace.attempts.length,
      "lookup_knowledge.found": true,
      "lookup_knowledge.evidence_status": "evidence",
      "lookup_knowledge.evidence_count": result.evidenceBlocks.length,
      "lookup_knowledge.candidate_count": result.retrievalTrace.candidateCount,
      "lookup_knowledge.relevance_level": result.relevanceLevel,
      "lookup_knowledge.completeness_status": result.completenessHint.status,
      "lookup_knowledge.retrieval_layer": result.retrievalTrace.retrievalLayer,
    });
    expect(span.attributes["lookup_knowledge.attempt_filters"]).toEqual(
      result.retrievalTrace.attempts.map((attempt) => JSON.stringify(attempt.filter ?? null)),
    );

    // The returned documents are the evidence blocks: their evidenceKey and score, in order.
    expect(result.evidenceBlocks.length).toBeGreaterThan(0);
    expect(documentsOf(span)).toEqual(expectedDocuments(result));
    expect(documentsOf(span)[0]?.score).toEqual(expect.any(Number));
    expect(span.attributes["lookup_knowledge.evidence_keys"]).toEqual(result.evidenceBlocks.map((block) => block.evidenceKey));
  });

  it("issue 12: no query or evidence content on the span by default; both with includeContent", async () => {
    const plain = await retriever().lookup(question);
    const withContent = await retriever({ telemetry: { includeContent: true } }).lookup(question);
    const [plainSpan, contentSpan] = retrievalSpans(exporter) as [ReadableSpan, ReadableSpan];

    expect(plainSpan.name).toBe("retrieval");
    // Issue 35 item 3: a bare port is named by its tool when no data source id is given.
    expect(plainSpan.attributes[ATTR_GEN_AI_DATA_SOURCE_ID]).toBe("lookup_knowledge");
    expect(plainSpan.attributes).not.toHaveProperty(ATTR_GEN_AI_RETRIEVAL_QUERY_TEXT);
    expect(documentsOf(plainSpan).some((document) => "content" in document)).toBe(false);
    const everyValue = JSON.stringify(Object.values(plainSpan.attributes));
    expect(everyValue).not.toContain("refund for a paid");
    for (const block of plain.evidenceBlocks) expect(everyValue).not.toContain(block.content.slice(0, 40));

    expect(contentSpan.attributes[ATTR_GEN_AI_RETRIEVAL_QUERY_TEXT]).toBe(question);
    expect(documentsOf(contentSpan)).toEqual(
      withContent.evidenceBlocks.map((block) => ({ ...expectedDocuments(withContent)[block.rank - 1], content: block.content })),
    );
  });

  it("issue 12: a lookup that finds nothing is a span with found=false, its attempts, filters and fallback reason", async () => {
    // Hints that name a category no chunk has, under any caller filter (a stub that admits every
    // entry): the first attempt adds its filter and finds nothing, the retry drops it.
    const exportsHints: L0Index = {
      size: 1,
      match: () => ({ ...emptyL0Hints(), domains: ["exports"], keywords: ["refund window"] }),
      within: () => exportsHints,
    };
    const result = await retriever({ l0Index: exportsHints }).lookup(billingQuestion, { filter: noTenant });
    expect(result.found).toBe(false);
    const [span] = retrievalSpans(exporter) as [ReadableSpan];

    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toMatchObject({
      "lookup_knowledge.found": false,
      "lookup_knowledge.evidence_status": "no_evidence",
      "lookup_knowledge.evidence_count": 0,
      "lookup_knowledge.relevance_level": "none",
      "lookup_knowledge.filter": JSON.stringify(noTenant),
    });
    expect(documentsOf(span)).toEqual([]);
    // The retry keeps the caller's filter (R8, R12).
    expect(result.retrievalTrace.fallbackReason).toBe("filtered_vector_no_evidence");
    expect(span.attributes["lookup_knowledge.fallback_reason"]).toBe("filtered_vector_no_evidence");
    expect(span.attributes["lookup_knowledge.attempts"]).toBe(2);
    const attemptFilters = span.attributes["lookup_knowledge.attempt_filters"] as string[];
    expect(attemptFilters).toHaveLength(2);
    expect(attemptFilters[0]).toContain("exports");
    expect(attemptFilters[0]).toContain("nobody");
    expect(JSON.parse(attemptFilters[1] ?? "")).toEqual(noTenant);
  });

  it("issue 12: a lookup that throws ends its span with status ERROR and the exception, without the query", async () => {
    const lookups = retriever();
    const blank = " \u0007 ";
    await expect(lookups.lookup(blank)).rejects.toSatisfy((error) => InvalidQueryError.isInstance(error));
    const controller = new AbortController();
    controller.abort();
    await expect(lookups.lookup(question, { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });

    const [invalid, aborted] = retrievalSpans(exporter) as [ReadableSpan, ReadableSpan];
    expect(invalid.status.code).toBe(SpanStatusCode.ERROR);
    expect(invalid.attributes[ATTR_ERROR_TYPE]).toBe("invalid_query");
    expect(invalid.events.map((event) => event.name)).toEqual(["exception"]);
    const exception = invalid.events[0]?.attributes ?? {};
    expect(exception["exception.type"]).toBe("invalid_query");
    expect(exception["exception.message"]).toMatch(/^Invalid query \(query not recorded\): /);
    expect(exception).not.toHaveProperty("exception.stacktrace");
    expect(invalid.status.message).toBe(exception["exception.message"]);
    expect(invalid.attributes).not.toHaveProperty("lookup_knowledge.found");

    expect(aborted.status.code).toBe(SpanStatusCode.ERROR);
    expect(aborted.attributes[ATTR_ERROR_TYPE]).toBe("AbortError");
    expect(aborted.events[0]?.attributes?.["exception.message"]).toEqual(expect.any(String));
  });

  it("issue 12: a lookup inside an active span is its child", async () => {
    const tracer = trace.getTracer("the-application");
    await tracer.startActiveSpan("answer the user", async (parent) => {
      await retriever().lookup(question);
      parent.end();
    });
    const spans = exporter.getFinishedSpans();
    const parent = spans.find((span) => span.name === "answer the user");
    const lookup = spans.find((span) => span.name === "retrieval");
    expect(parent).toBeDefined();
    expect(lookup?.spanContext().traceId).toBe(parent?.spanContext().traceId);
    expect(lookup?.parentSpanContext?.spanId).toBe(parent?.spanContext().spanId);
  });

  it("issue 12: the tracer option wins over the global tracer", async () => {
    const ownExporter = new InMemorySpanExporter();
    const ownProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(ownExporter)] });
    const ownTracer: Tracer = ownProvider.getTracer("own");
    // The API's Tracer is the option's structural type.
    const asOption: TelemetryTracer = ownTracer;
    await retriever({ telemetry: { tracer: asOption } }).lookup(question);
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(retrievalSpans(ownExporter).map((span) => [span.name, span.instrumentationScope.name])).toEqual([["retrieval", "own"]]);
    await ownProvider.shutdown();
  });

  it("issue 12: with no tracer provider registered nothing is recorded and nothing throws", async () => {
    trace.disable();
    const lookups = retriever({ telemetry: { includeContent: true } });
    const result = await lookups.lookup(question);
    expect(result.found).toBe(true);
    await expect(lookups.lookup("")).rejects.toSatisfy((error) => InvalidQueryError.isInstance(error));
    expect(exporter.getFinishedSpans()).toEqual([]);
    // Registered afterwards, the provider sees the next lookups of the same retriever.
    trace.setGlobalTracerProvider(provider);
    await lookups.lookup(question);
    expect(retrievalSpans(exporter)).toHaveLength(1);
  });

  it("issue 12: openLocalKnowledgeBase and openKnowledgeBase pass the telemetry option to their retriever", async () => {
    const local = await openLocalKnowledgeBase({ dataDirectory, telemetry: { dataSourceId: "local-kb", includeContent: true } });
    try {
      await local.retriever.lookup(question);
    } finally {
      await local.close();
    }
    const any = await openKnowledgeBase({ dataDirectory, telemetry: { dataSourceId: "any-kb" } });
    try {
      await any.retriever.lookup(question);
    } finally {
      await any.close();
    }
    const [localSpan, anySpan] = retrievalSpans(exporter) as [ReadableSpan, ReadableSpan];
    expect(localSpan.attributes["gen_ai.data_source.id"]).toBe("local-kb");
    expect(localSpan.attributes[ATTR_GEN_AI_RETRIEVAL_QUERY_TEXT]).toBe(question);
    expect(anySpan.attributes["gen_ai.data_source.id"]).toBe("any-kb");
    expect(anySpan.attributes).not.toHaveProperty(ATTR_GEN_AI_RETRIEVAL_QUERY_TEXT);
  });

  it("issue 35 item 3: openLocalKnowledgeBase and openKnowledgeBase name the data folder as the data source by default", async () => {
    for (const open of [openLocalKnowledgeBase, openKnowledgeBase]) {
      const opened = await open({ dataDirectory });
      try {
        await opened.retriever.lookup(question);
      } finally {
        await opened.close();
      }
    }
    const ids = retrievalSpans(exporter).map((span) => span.attributes[ATTR_GEN_AI_DATA_SOURCE_ID]);
    expect(ids).toEqual([basename(dataDirectory), basename(dataDirectory)]);
    expect(ids[0]).toMatch(/^lookup-spans-/);
  });

  it("issue 12: a bad telemetry option is refused with its key", () => {
    expect(() => retriever({ telemetry: { includeContent: "yes" as unknown as boolean } })).toThrow(/telemetry\.includeContent/);
    expect(() => retriever({ telemetry: { dataSourceId: "  " } })).toThrow(/telemetry\.dataSourceId/);
    expect(() => retriever({ telemetry: { tracer: {} as TelemetryTracer } })).toThrow(/telemetry\.tracer.*startActiveSpan/);
    expect(() => retriever({ telemetry: { includeContents: true } as never })).toThrow(/telemetry/);
  });
});
