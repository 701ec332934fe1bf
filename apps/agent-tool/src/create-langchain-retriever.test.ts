import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { Serialized } from "@langchain/core/load/serializable";
import type { DocumentInterface } from "@langchain/core/documents";
import { RunnableLambda, RunnableSequence } from "@langchain/core/runnables";
import type { LookupResult } from "@lookup-knowledge/core";
import { createScriptedSearchPort } from "@lookup-knowledge/search-port/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKnowledgeRetriever, type KnowledgeRetriever } from "./create-knowledge-retriever.js";
import { createLangChainRetriever, lookupKnowledgeResultEvent } from "./create-langchain-retriever.js";
import { lookupFieldNames, type KnowledgeDocumentMetadata } from "./lookup-result-to-documents.js";
import type { LocalKnowledgeBase } from "./open-local-knowledge-base.js";
import { openSmallKnowledgeBase } from "./test/small-knowledge-base.js";

const question = "Who can issue a refund for a paid invoice?";
const nothingMatches = { category: { $eq: "no-such-category" } };

type Seen =
  | {
      kind: "start";
      runId: string;
      parentRunId: string | undefined;
      serializedId: string[];
      query: string;
      tags: string[] | undefined;
      metadata: unknown;
      name: string | undefined;
    }
  | { kind: "custom"; runId: string; eventName: string; data: unknown }
  | { kind: "end"; runId: string; documents: DocumentInterface[] }
  | { kind: "error"; runId: string; error: unknown };

/** A real LangChain callback handler that writes down what it is told, awaited by the run. */
class RecordingHandler extends BaseCallbackHandler {
  name = "recording_handler";
  readonly seen: Seen[] = [];

  constructor() {
    super({ _awaitHandler: true });
  }

  override handleRetrieverStart(
    retriever: Serialized,
    query: string,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
    name?: string,
  ): void {
    this.seen.push({ kind: "start", runId, parentRunId, serializedId: retriever.id, query, tags, metadata, name });
  }

  override handleCustomEvent(eventName: string, data: unknown, runId: string): void {
    this.seen.push({ kind: "custom", runId, eventName, data });
  }

  override handleRetrieverEnd(documents: DocumentInterface[], runId: string): void {
    this.seen.push({ kind: "end", runId, documents });
  }

  override handleRetrieverError(error: unknown, runId: string): void {
    this.seen.push({ kind: "error", runId, error });
  }

  kinds(): string[] {
    return this.seen.map((entry) => entry.kind);
  }

  of<Kind extends Seen["kind"]>(kind: Kind): Extract<Seen, { kind: Kind }> {
    const found = this.seen.find((entry): entry is Extract<Seen, { kind: Kind }> => entry.kind === kind);
    if (!found) throw new Error(`the handler saw no ${kind}`);
    return found;
  }
}

describe("createLangChainRetriever over a real embedded knowledge base", () => {
  let knowledgeBase: LocalKnowledgeBase;
  let remove: () => Promise<void>;
  beforeAll(async () => {
    ({ knowledgeBase, remove } = await openSmallKnowledgeBase());
  });
  afterAll(async () => {
    await remove();
  });

  function retrieverWith(config: Record<string, number | boolean>): KnowledgeRetriever {
    return createKnowledgeRetriever({ searchPort: knowledgeBase.searchPort, l0Index: knowledgeBase.l0Index, config });
  }

  it("issue 12: the README example runs: documents, LCEL, the custom event and lookupWithDocuments", async () => {
    const retriever = createLangChainRetriever(knowledgeBase.retriever, { filter: { category: { $eq: "billing" } }, tags: ["knowledge"] });
    const documents = await retriever.invoke("Who can refund a paid invoice?");
    // The filter is the caller's scope: the two billing pages of this small base are searched as a
    // base of their own, where both speak of paid invoices and refunds (issue 33).
    expect(documents[0]?.id).toMatch(/^billing\/(refunds|invoices)#chunk-\d+$/);
    expect(documents.map((document) => document.metadata.source)).toContain("billing/refunds.md");
    expect(documents.every((document) => String(document.metadata.source).startsWith("billing/"))).toBe(true);
    const sources = RunnableSequence.from([retriever, (found: typeof documents) => found.map((document) => document.metadata.source)]);
    expect(await sources.invoke("Who can refund a paid invoice?")).toContain("billing/refunds.md");
    const foundFlags: boolean[] = [];
    await retriever.invoke("Who can refund a paid invoice?", {
      callbacks: [{ handleCustomEvent: (name, result) => void (name === lookupKnowledgeResultEvent && foundFlags.push(result.found)) }],
    });
    expect(foundFlags).toEqual([true]);
    const { result } = await retriever.lookupWithDocuments("Who can refund a paid invoice?");
    expect(result.retrievalTrace.attempts.length).toBeGreaterThan(0);
  });

  it("issue 12: each document is a packed block of the result: its content, evidenceKey as id, and the block's metadata", async () => {
    const retriever = createLangChainRetriever(knowledgeBase.retriever);
    const { documents, result } = await retriever.lookupWithDocuments(question);
    if (!result.found) throw new Error("the example question should find evidence");
    expect(documents.length).toBeGreaterThanOrEqual(2);
    expect(documents).toHaveLength(result.contextPack.blocks.length);
    result.contextPack.blocks.forEach((block, index) => {
      const evidence = result.evidenceBlocks.find((candidate) => candidate.evidenceKey === block.evidenceKey);
      if (!evidence) throw new Error(`no evidence block for ${block.evidenceKey}`);
      const document = documents[index];
      expect(document?.id).toBe(block.evidenceKey);
      expect(document?.pageContent).toBe(block.content);
      // The chunk's own metadata (R20, issue 35), less the lookup field names, beside the lookup fields.
      const chunk = Object.entries(evidence.metadata ?? {}).filter(([key]) => !lookupFieldNames.includes(key));
      expect(chunk.length).toBeGreaterThan(0);
      const expected: Record<string, unknown> = {
        ...Object.fromEntries(chunk),
        evidenceKey: block.evidenceKey,
        source: block.source,
        hitReasons: block.hitReasons,
        retrievalLayer: evidence.retrievalLayer,
        rank: evidence.rank,
      };
      if (block.title !== undefined) expected["title"] = block.title;
      if (block.breadcrumb !== undefined) expected["breadcrumb"] = block.breadcrumb;
      if (evidence.score !== undefined) expected["score"] = evidence.score;
      expect(document?.metadata).toEqual(expected);
      expect(Object.values(document?.metadata ?? {})).not.toContain(undefined);
    });
    const first = documents[0]?.metadata;
    expect(first?.source).toBe("billing/refunds.md");
    expect(first?.title).toBe("Refunds");
    expect(first?.breadcrumb).toMatch(/Refunds/);
    expect(first?.score).toBeGreaterThan(0);
    expect(first?.hitReasons.some((reason) => /semantic match/.test(reason))).toBe(true);
    expect(first?.retrievalLayer).toBe("L0+L1");
    expect(first?.rank).toBe(1);
    // invoke gives the same documents as the run above.
    expect(await retriever.invoke(question)).toEqual(documents);
  });

  it("issue 12: pageContent is the packed content the model reads, cut to the context budget and marked truncated", async () => {
    const retriever = createLangChainRetriever(retrieverWith({ "rag.context-budget": 300 }));
    const { documents, result } = await retriever.lookupWithDocuments(question);
    if (!result.found) throw new Error("the example question should find evidence");
    const truncated = documents.find((document) => document.metadata.truncated === true);
    if (!truncated) throw new Error("a budget of 300 characters should truncate a block");
    const evidence = result.evidenceBlocks.find((block) => block.evidenceKey === truncated.id);
    expect(truncated.pageContent.length).toBeLessThan(evidence?.content.length ?? 0);
    expect(documents.map((document) => document.id)).toEqual(result.contextPack.summary.included);
    for (const omitted of result.contextPack.summary.omitted) {
      expect(documents.map((document) => document.id)).not.toContain(omitted.evidenceKey);
    }
  });

  it("issue 12: found=false gives no documents, and lookupWithDocuments still gives the result", async () => {
    const retriever = createLangChainRetriever(retrieverWith({ "rag.l1-enabled": false }));
    expect(await retriever.invoke(question)).toEqual([]);
    const { documents, result } = await retriever.lookupWithDocuments(question);
    expect(documents).toEqual([]);
    expect(result).toMatchObject({ found: false, evidenceStatus: "no_evidence" });
    expect(result.message).toMatch(/No knowledge evidence was found/);
  });

  it("issue 12: works in LCEL: RunnableSequence.from and pipe", async () => {
    const retriever = createLangChainRetriever(knowledgeBase.retriever);
    const sources = RunnableSequence.from([
      retriever,
      (documents: DocumentInterface<KnowledgeDocumentMetadata>[]) => documents.map((document) => document.metadata.source),
    ]);
    expect(await sources.invoke(question)).toContain("billing/refunds.md");
    const keys = retriever.pipe(RunnableLambda.from((documents: DocumentInterface[]) => documents.map((document) => document.id)));
    const [refunds, webhooks] = await keys.batch([question, "How are webhook deliveries signed?"]);
    expect(refunds?.[0]).toMatch(/^billing\/refunds#chunk-\d+$/);
    expect(webhooks?.[0]).toMatch(/^integrations\/webhooks#chunk-\d+$/);
  });

  it("issue 12: a callback handler sees the retriever run start, the whole result as a custom event of that run, and the end with the documents", async () => {
    const handler = new RecordingHandler();
    const retriever = createLangChainRetriever(knowledgeBase.retriever, { tags: ["knowledge"], metadata: { team: "support" } });
    const { documents, result } = await retriever.lookupWithDocuments(question, { callbacks: [handler], runName: "knowledge lookup" });
    expect(handler.kinds()).toEqual(["start", "custom", "end"]);
    const start = handler.of("start");
    expect(start).toMatchObject({ query: question, parentRunId: undefined, name: "knowledge lookup" });
    expect(start.serializedId.at(-1)).toBe("LookupKnowledgeRetriever");
    expect(start.tags).toContain("knowledge");
    expect(start.metadata).toMatchObject({ team: "support" });
    const custom = handler.of("custom");
    expect(custom.eventName).toBe(lookupKnowledgeResultEvent);
    expect(custom.eventName).toBe("lookup_knowledge_result");
    expect(custom.runId).toBe(start.runId);
    expect(custom.data).toEqual(result);
    const end = handler.of("end");
    expect(end.runId).toBe(start.runId);
    expect(end.documents).toEqual(documents);
    expect((custom.data as LookupResult).found).toBe(true);
  });

  it("issue 12: handlers given at creation see every run, and inside a chain the events belong to the retriever's own run", async () => {
    const handler = new RecordingHandler();
    const retriever = createLangChainRetriever(knowledgeBase.retriever, { callbacks: [handler] });
    await retriever.invoke(question);
    expect(handler.kinds()).toEqual(["start", "custom", "end"]);

    const inChain = new RecordingHandler();
    const chain = RunnableSequence.from([retriever, (documents: DocumentInterface[]) => documents.length]);
    const parentIds: string[] = [];
    const count = await chain.invoke(question, {
      callbacks: [
        inChain,
        { handleChainStart: (_chain, _inputs, runId, parentRunId) => void (parentRunId ? undefined : parentIds.push(runId)) },
      ],
    });
    expect(count).toBeGreaterThan(0);
    const start = inChain.of("start");
    expect(start.parentRunId).toBe(parentIds[0]);
    expect(inChain.of("custom").runId).toBe(start.runId);
    expect(inChain.of("end").documents).toHaveLength(count);
  });

  it("issue 12: with found=false the handler still gets the whole result as the custom event, and the end with no documents", async () => {
    const handler = new RecordingHandler();
    const retriever = createLangChainRetriever(knowledgeBase.retriever, { filter: nothingMatches });
    expect(await retriever.invoke(question, { callbacks: [handler] })).toEqual([]);
    expect(handler.kinds()).toEqual(["start", "custom", "end"]);
    const result = handler.of("custom").data as LookupResult;
    expect(result).toMatchObject({ found: false, evidenceStatus: "no_evidence" });
    expect(result.retrievalTrace.attempts.length).toBeGreaterThan(0);
    expect(handler.of("end").documents).toEqual([]);
  });

  it("issue 12: streamEvents shows the result as an on_custom_event of the retriever run", async () => {
    const retriever = createLangChainRetriever(knowledgeBase.retriever);
    const events: Array<{ event: string; name: string; run_id: string; data: unknown }> = [];
    for await (const event of retriever.streamEvents(question, { version: "v2" })) events.push(event);
    const start = events.find((event) => event.event === "on_retriever_start");
    const custom = events.find((event) => event.event === "on_custom_event");
    expect(custom?.name).toBe("lookup_knowledge_result");
    expect(custom?.run_id).toBe(start?.run_id);
    if (!custom) throw new Error("no on_custom_event was streamed");
    expect((custom.data as LookupResult).found).toBe(true);
    expect(events.map((event) => event.event)).toContain("on_retriever_end");
  });

  it("issue 12 (R12): the bound filter is kept on every lookup; one that excludes everything gives []", async () => {
    const integrations = { category: { $eq: "integrations" } };
    const retriever = createLangChainRetriever(knowledgeBase.retriever, { filter: integrations });
    const { documents, result } = await retriever.lookupWithDocuments("How are webhook deliveries signed, and who can refund?");
    expect(documents.length).toBeGreaterThan(0);
    for (const document of documents) expect(document.metadata.source).toBe("integrations/webhooks.md");
    for (const attempt of result.retrievalTrace.attempts) expect(JSON.stringify(attempt.filter)).toContain('"integrations"');

    const excluded = createLangChainRetriever(knowledgeBase.retriever, { filter: nothingMatches });
    const refused = await excluded.lookupWithDocuments(question);
    expect(refused.documents).toEqual([]);
    expect(refused.result.found).toBe(false);
    for (const attempt of refused.result.retrievalTrace.attempts) expect(JSON.stringify(attempt.filter)).toContain("no-such-category");
  });

  it("issue 12: a malformed bound filter is refused at creation with a message naming where", () => {
    expect(() => createLangChainRetriever(knowledgeBase.retriever, { filter: { category: { $like: "bill%" } } as never })).toThrow(
      /Invalid metadata filter at category/,
    );
    expect(() => createLangChainRetriever(knowledgeBase.retriever, { filter: "billing" as never })).toThrow(/Invalid metadata filter/);
    expect(() => createLangChainRetriever({} as never)).toThrow(/createLangChainRetriever needs a KnowledgeRetriever/);
  });

  it("issue 12: an aborted run rejects with the caller's reason, reports the error to handlers and dispatches no result", async () => {
    const handler = new RecordingHandler();
    const retriever = createLangChainRetriever(knowledgeBase.retriever);
    const controller = new AbortController();
    controller.abort(new Error("user left"));
    await expect(retriever.invoke(question, { signal: controller.signal, callbacks: [handler] })).rejects.toThrow("user left");
    expect(handler.kinds()).toEqual(["start", "error"]);
  });
});

describe("createLangChainRetriever: abort while the search runs", () => {
  it("issue 12: the run's signal reaches the lookup: aborting mid-search rejects with the caller's reason", async () => {
    const port = createScriptedSearchPort([{ hang: true }]);
    const retriever = createLangChainRetriever(createKnowledgeRetriever({ searchPort: port }));
    const controller = new AbortController();
    const pending = retriever.invoke(question, { signal: controller.signal });
    await expect.poll(() => port.calls).toBe(1);
    controller.abort(new Error("user left"));
    await expect(pending).rejects.toThrow("user left");
    expect(port.requests[0]?.signal?.aborted).toBe(true);
  });

  it("issue 12: the run's timeout aborts the lookup too, inside a chain as well", async () => {
    const port = createScriptedSearchPort([{ hang: true }]);
    const retriever = createLangChainRetriever(createKnowledgeRetriever({ searchPort: port }));
    await expect(retriever.invoke(question, { timeout: 30 })).rejects.toMatchObject({ name: "TimeoutError" });
    const chain = retriever.pipe((documents: DocumentInterface[]) => documents.length);
    const controller = new AbortController();
    const pending = chain.invoke(question, { signal: controller.signal });
    await expect.poll(() => port.calls).toBe(2);
    controller.abort(new Error("chain stopped"));
    await expect(pending).rejects.toThrow("chain stopped");
    expect(port.requests[1]?.signal?.aborted).toBe(true);
  });
});
