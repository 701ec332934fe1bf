import { createKnowledgeRetriever } from "@lookup-knowledge/agent-tool";
import type { LookupResult } from "@lookup-knowledge/core";
import type { EvidenceSummary } from "@lookup-knowledge/trace-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rebuildModelContent, type ModelContent } from "./rebuild-model-content.js";
import { readOnlyPort } from "./read-only-port.js";
import { inspectExampleBase, type InspectedBase } from "./test/inspected-base.js";

type Trace = { query: string; retrievalDetails: { evidence: EvidenceSummary[] }; modelContent: ModelContent[] };

describe("the exact content the model read, rebuilt for a recorded lookup", () => {
  let base: InspectedBase;
  beforeAll(async () => {
    base = await inspectExampleBase();
  }, 240_000);
  afterAll(async () => {
    await base?.close();
  });

  async function recordAndRead(query: string, config: Record<string, number>): Promise<{ result: LookupResult; trace: Trace }> {
    const retriever = createKnowledgeRetriever({
      searchPort: base.knowledgeBase.store.port,
      l0Index: base.knowledgeBase.l0Index,
      traceStore: base.traces,
      config,
    });
    const result = await retriever.lookup(query);
    await retriever.flushTraces();
    const listed = (await (await fetch(new URL("/api/traces?limit=50", base.server.url))).json()) as {
      records: Array<{ id: string; query: string }>;
    };
    const row = listed.records.find((record) => record.query === query);
    const trace = (await (await fetch(new URL(`/api/traces/${row?.id}`, base.server.url))).json()) as Trace;
    return { result, trace };
  }

  it("issue 13: GET /api/traces/:id gives each block's exact packed content, checked against the trace's digest", async () => {
    const query = "How long does a card refund take to reach the customer?";
    const { result, trace } = await recordAndRead(query, {});
    expect(result.found).toBe(true);
    if (!result.found) return;
    expect(trace.modelContent.map((content) => content.status)).toEqual(result.contextPack.blocks.map(() => "exact"));
    expect(trace.modelContent.map((content) => (content.status === "exact" ? content.text : ""))).toEqual(
      result.contextPack.blocks.map((block) => block.content),
    );
    // The trace itself holds no evidence text (R28), only digests and previews.
    expect(JSON.stringify(trace.retrievalDetails)).not.toContain(result.contextPack.blocks[0]?.content.slice(0, 200));
  });

  it("issue 13: a block the context budget cut is rebuilt cut exactly as the model read it", async () => {
    const query = "Which payment methods can customers use, and what are their fees?";
    const { result, trace } = await recordAndRead(query, { "rag.context-budget": 700 });
    expect(result.found).toBe(true);
    if (!result.found) return;
    const truncated = result.contextPack.blocks.filter((block) => block.truncated);
    expect(truncated.length).toBeGreaterThan(0);
    const byKey = new Map(trace.retrievalDetails.evidence.map((block, index) => [block.evidenceKey, trace.modelContent[index]]));
    for (const block of result.contextPack.blocks) expect(byKey.get(block.evidenceKey)).toEqual({ status: "exact", text: block.content });
    // A block the budget left out entirely was not read by the model.
    for (const omitted of result.contextPack.summary.omitted) {
      expect(byKey.get(omitted.evidenceKey)).toEqual({ status: "unknown", reason: "the block was not packed for the model" });
    }
  });

  it("issue 13: a chunk that changed since the lookup is said to have changed, never shown as what the model read", async () => {
    const query = "Who can issue a refund for a paid invoice?";
    const { trace } = await recordAndRead(query, {});
    const port = readOnlyPort(base.knowledgeBase.store.port);
    // The index as it would be after a re-ingest that changed the first chunk: the real records, the first one edited.
    const edited = {
      search: port.search,
      fetchRecords: async (ids: readonly string[]) => {
        const records = (await port.fetchRecords?.(ids)) as Array<{ content: string } | undefined>;
        return records.map((record, index) => (index === 0 && record ? { ...record, content: `${record.content} (edited)` } : record));
      },
    };
    const rebuilt = await rebuildModelContent(edited, trace.retrievalDetails.evidence);
    expect(rebuilt[0]).toEqual({ status: "changed", reason: "the chunk changed since this lookup (re-ingested)" });
    expect(rebuilt.slice(1).every((content) => content.status === "exact")).toBe(true);
    const searchOnly = await rebuildModelContent({ search: port.search }, trace.retrievalDetails.evidence);
    expect(searchOnly.every((content) => content.status === "unknown")).toBe(true);
    const old = await rebuildModelContent(
      port,
      trace.retrievalDetails.evidence.map(({ packed: _packed, ...rest }) => rest),
    );
    expect(old[0]).toEqual({ status: "unknown", reason: "this lookup was recorded without content digests" });
  });
});
