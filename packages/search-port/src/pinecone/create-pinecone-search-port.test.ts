// Over 300 lines on purpose: one suite against one real client and the local Pinecone server, sharing its
// servers, records and helpers; the option checks are also tested alone in read-pinecone-settings.test.ts.
import { ConfigurationError, InvalidFilterError, TimeoutError } from "@lookup-knowledge/core";
import { Pinecone } from "@pinecone-database/pinecone";
import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { createPineconeSearchPort } from "./create-pinecone-search-port.js";
import { lexicalSparseValues } from "./lexical-sparse-values.js";
import { PineconePortError } from "./pinecone-port-error.js";
import { embeddings, indexOf, portOn, quick, requestsTo, usePineconeTestServers } from "./pinecone-port-test-fixtures.js";
import type { PineconeIndex } from "./pinecone-search-port.js";
import type { PineconeSearchPortOptions } from "./pinecone-search-port-options.js";

const { serve } = usePineconeTestServers();

const records: KnowledgeRecord[] = [
  {
    id: "refunds#chunk-0",
    content: "Refunds are paid back to the original card within five business days.",
    metadata: { docId: "refunds", chunkIndex: 0, title: "Refund policy", category: "billing", tenant: "acme" },
  },
  {
    id: "shipping#chunk-0",
    content: "Parcels leave the Rotterdam warehouse every weekday.",
    metadata: { docId: "shipping", chunkIndex: 0, title: "Shipping", category: "logistics", tenant: "acme" },
  },
];

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe("createPineconeSearchPort against the real client and the local server", () => {
  it("R13: writes records with their text, vectors and metadata, and reads them back with normalised scores", async () => {
    const server = await serve();
    const port = portOn(server);
    await port.upsert(records);
    expect(server.recordCount("docs")).toBe(2);
    const hits = await port.search({ query: "How are refunds paid?", topK: 2 });
    expect(hits.map((hit) => hit.id)).toEqual(["refunds#chunk-0", "shipping#chunk-0"]);
    expect(hits[0]).toMatchObject({ content: records[0]?.content, metadata: records[0]?.metadata });
    expect(hits[0]?.metadata).not.toHaveProperty("text");
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? 1);
  });

  it("R13: retries 429 and 500 answers with backoff, then returns the answer", async () => {
    const server = await serve();
    const port = portOn(server);
    await port.upsert(records);
    server.inject({ path: "/query", status: 429 });
    server.inject({ path: "/query", status: 500 });
    const before = requestsTo(server, "/query");
    const hits = await port.search({ query: "refunds", topK: 1 });
    expect(hits[0]?.id).toBe("refunds#chunk-0");
    expect(requestsTo(server, "/query") - before).toBe(3);
  });

  it("R13: stops after maxRetries with pinecone_unavailable naming the last status; the retries are bounded", async () => {
    const server = await serve();
    const port = portOn(server, { maxRetries: 2 });
    server.inject({ path: "/query", status: 503, times: 100 });
    const error = await rejection(port.search({ query: "refunds", topK: 1 }));
    expect(PineconePortError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "pinecone_unavailable", operation: "query", attempts: 3, retryable: true });
    expect(requestsTo(server, "/query")).toBe(3);
    server.clearFaults();
    server.inject({ path: "/query", status: 429, times: 100 });
    const limited = await rejection(port.search({ query: "refunds", topK: 1 }));
    expect(limited).toMatchObject({ code: "pinecone_unavailable", status: 429, attempts: 3 });
    expect((limited as Error).message).toMatch(/after 3 attempts \(last: HTTP 429\)/);
  });

  it("R13: a 400 is not retried and the error names the operation, the status and Pinecone's message", async () => {
    const server = await serve();
    const port = portOn(server);
    server.inject({ path: "/query", status: 400, message: "Metadata filter is malformed: unsupported $regex" });
    const error = await rejection(port.search({ query: "refunds", topK: 1 }));
    expect(error).toMatchObject({ code: "pinecone_rejected", operation: "query", status: 400, retryable: false, attempts: 1 });
    expect((error as Error).message).toContain("Pinecone refused query (HTTP 400)");
    expect((error as Error).message).toContain("unsupported $regex");
    expect(requestsTo(server, "/query")).toBe(1);
  });

  it("R13: a rejected API key is a clear 401 that never shows the key", async () => {
    const server = await serve({ apiKey: "the-right-key" });
    const port = createPineconeSearchPort({ index: indexOf(server, "a-wrong-secret"), embeddings, metric: "cosine", ...quick });
    const error = await rejection(port.search({ query: "refunds", topK: 1 }));
    expect(error).toMatchObject({ code: "pinecone_rejected", status: 401 });
    expect((error as Error).message).toContain("check the API key");
    expect((error as Error).message).not.toContain("a-wrong-secret");
    expect(requestsTo(server, "/query")).toBe(1);
  });

  it("R13: a slow answer times out; each attempt is limited and the retries are bounded", async () => {
    const server = await serve();
    const port = portOn(server, { timeoutMs: 50, maxRetries: 1 });
    server.inject({ path: "/query", delayMs: 10_000, times: 10 });
    const error = await rejection(port.search({ query: "refunds", topK: 1 }));
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: "Pinecone query", timeoutMs: 50 });
    expect(requestsTo(server, "/query")).toBe(2);
  });

  it("R13: an attempt that timed out is retried and the next answer is used", async () => {
    const server = await serve();
    const port = portOn(server, { timeoutMs: 100 });
    await port.upsert(records);
    server.inject({ path: "/query", delayMs: 10_000 });
    const hits = await port.search({ query: "refunds", topK: 1 });
    expect(hits[0]?.id).toBe("refunds#chunk-0");
  });

  it("R13: a body that is not JSON is a pinecone_malformed_response, not retried", async () => {
    const server = await serve();
    const port = portOn(server);
    server.inject({ path: "/query", malformed: "not-json" });
    const error = await rejection(port.search({ query: "refunds", topK: 1 }));
    expect(error).toMatchObject({ code: "pinecone_malformed_response", operation: "query" });
    expect(requestsTo(server, "/query")).toBe(1);
  });

  it("R13: JSON of the wrong shape is a pinecone_malformed_response, for queries, listings and records searches", async () => {
    const server = await serve({
      integrated: { textField: "chunk_text", embed: (texts) => embeddings.embedDocuments(texts) },
    });
    server.inject({ path: "/query", malformed: "wrong-shape" });
    await expect(portOn(server).search({ query: "refunds", topK: 1 })).rejects.toMatchObject({ code: "pinecone_malformed_response" });
    server.inject({ path: "/vectors/list", malformed: "wrong-shape" });
    await expect(portOn(server).deleteDocuments(["refunds"])).rejects.toMatchObject({
      code: "pinecone_malformed_response",
      operation: "listPaginated",
    });
    const integrated = createPineconeSearchPort({
      index: indexOf(server),
      namespace: "docs",
      integrated: { textField: "chunk_text" },
      metric: "cosine",
      ...quick,
    });
    server.inject({ path: /\/search$/, malformed: "wrong-shape" });
    await expect(integrated.search({ query: "refunds", topK: 1 })).rejects.toMatchObject({ code: "pinecone_malformed_response" });
  });

  it("R13: aborting while Pinecone is slow rejects at once with signal.reason, without a retry", async () => {
    const server = await serve();
    const port = portOn(server, { timeoutMs: 60_000 });
    server.inject({ path: "/query", delayMs: 60_000 });
    const controller = new AbortController();
    const reason = new Error("the caller gave up");
    const pending = port.search({ query: "refunds", topK: 1, signal: controller.signal });
    while (requestsTo(server, "/query") === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(requestsTo(server, "/query")).toBe(1);
  });

  it("R13: upserts go in batches of batchSize with at most `concurrency` requests in flight", async () => {
    const server = await serve();
    const index = indexOf(server);
    let inFlight = 0;
    let mostInFlight = 0;
    const sizes: number[] = [];
    const counting: PineconeIndex = Object.assign(Object.create(index) as PineconeIndex, {
      async upsert(options: Parameters<PineconeIndex["upsert"]>[0]) {
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        sizes.push(options.records.length);
        try {
          await index.upsert(options);
        } finally {
          inFlight -= 1;
        }
      },
    });
    server.inject({ path: "/vectors/upsert", delayMs: 20, times: 100 });
    const port = createPineconeSearchPort({
      index: counting,
      namespace: "docs",
      embeddings,
      metric: "cosine",
      batchSize: 20,
      concurrency: 3,
    });
    const many = Array.from({ length: 250 }, (_, chunkIndex) => ({
      id: `manual#chunk-${chunkIndex}`,
      content: `Chapter ${chunkIndex} of the manual.`,
      metadata: { docId: "manual", chunkIndex },
    }));
    await port.upsert(many);
    expect(sizes).toHaveLength(13);
    expect(Math.max(...sizes)).toBe(20);
    expect(mostInFlight).toBeLessThanOrEqual(3);
    expect(server.recordCount("docs")).toBe(250);
  });

  it("R13: a 429 during an upsert is retried and the write completes", async () => {
    const server = await serve();
    const port = portOn(server);
    server.inject({ path: "/vectors/upsert", status: 429 });
    await port.upsert(records);
    expect(server.recordCount("docs")).toBe(2);
    expect(requestsTo(server, "/vectors/upsert")).toBe(2);
  });

  it("R13: deleteDocuments pages through the prefix listing and deletes every chunk, sparing other documents", async () => {
    const server = await serve();
    const port = portOn(server, { batchSize: 100 });
    const manual = Array.from({ length: 230 }, (_, chunkIndex) => ({
      id: `manual#chunk-${chunkIndex}`,
      content: `Chapter ${chunkIndex} of the manual.`,
      metadata: { docId: "manual", chunkIndex },
    }));
    const other = { id: "manual#v2#chunk-0", content: "The second manual.", metadata: { docId: "manual#v2", chunkIndex: 0 } };
    await port.upsert([...manual, other, ...records]);
    expect(await port.deleteDocuments(["manual", "manual", "nothing"])).toBe(230);
    expect(requestsTo(server, "/vectors/list")).toBeGreaterThanOrEqual(4);
    expect(server.recordCount("docs")).toBe(3);
  });

  it("R13: integrated inference writes NDJSON records and searches them through searchRecords", async () => {
    const server = await serve({
      integrated: {
        textField: "chunk_text",
        embed: (texts, kind) =>
          kind === "query" ? Promise.all(texts.map((text) => embeddings.embedQuery(text))) : embeddings.embedDocuments(texts),
      },
    });
    const client = new Pinecone({ apiKey: "test-key", controllerHostUrl: server.url, maxRetries: 0 });
    const indexDescription = await client.describeIndex("test-index");
    const port = createPineconeSearchPort({
      index: client.index({ host: server.url }),
      namespace: "docs",
      integrated: true,
      indexDescription,
    });
    expect(port.mode).toBe("integrated");
    expect(port.metric).toBe("cosine");
    await port.upsert(records);
    expect(server.requests.some((request) => request.path === "/records/namespaces/docs/upsert")).toBe(true);
    const hits = await port.search({ query: "refunds to the card", topK: 1, filter: { tenant: "acme" } });
    expect(hits[0]).toMatchObject({ id: "refunds#chunk-0", content: records[0]?.content, metadata: records[0]?.metadata });
  });

  it("R13: hybrid scores are (1 - w) x dense cosine + w x lexical cosine", async () => {
    const server = await serve({ metric: "dotproduct" });
    const lexicalWeight = 0.4;
    const port = portOn(server, { metric: "dotproduct", hybrid: { lexicalWeight } });
    await port.upsert(records);
    const query = "refunds card business days";
    const [hit] = await port.search({ query, topK: 1 });
    const record = records[0] as KnowledgeRecord;
    const text = `Refund policy\n${record.content}`;
    const [queryVector, recordVector] = [await embeddings.embedQuery(query), (await embeddings.embedDocuments([text]))[0] ?? []];
    const dense = cosine(queryVector, recordVector);
    const lexicalQuery = lexicalSparseValues(query);
    const lexicalRecord = lexicalSparseValues(text);
    let lexical = 0;
    lexicalQuery.indices.forEach((index, position) => {
      const at = lexicalRecord.indices.indexOf(index);
      if (at >= 0) lexical += (lexicalQuery.values[position] ?? 0) * (lexicalRecord.values[at] ?? 0);
    });
    expect(lexical).toBeGreaterThan(0);
    expect(hit?.score).toBeCloseTo((1 - lexicalWeight) * dense + lexicalWeight * lexical, 5);
  });

  it("R13: a record the filter excludes is never passed on, even when the index ignores the filter", async () => {
    const server = await serve({ ignoreFilters: true });
    const port = portOn(server);
    await port.upsert(records);
    const error = await rejection(port.search({ query: "parcels", topK: 2, filter: { category: "billing" } }));
    expect(error).toMatchObject({ code: "filter_not_honoured", operation: "query" });
  });

  it("R13: filters are validated before any request; one that matches nothing sends none", async () => {
    const server = await serve();
    const port = portOn(server);
    await expect(port.search({ query: "x", topK: 1, filter: { tenant: { $regex: "a" } } as never })).rejects.toSatisfy(
      InvalidFilterError.isInstance,
    );
    expect(await port.search({ query: "x", topK: 1, filter: { tenant: { $in: [] } } })).toEqual([]);
    expect(await port.search({ query: "x", topK: 0 })).toEqual([]);
    expect(requestsTo(server, "/query")).toBe(0);
  });

  it("R13: the server applies Pinecone's $ne and refuses booleans in $in; the translated filter still gives the reference answer", async () => {
    const server = await serve();
    const index = indexOf(server);
    const port = createPineconeSearchPort({ index, namespace: "docs", embeddings, metric: "cosine" });
    await port.upsert([...records, { id: "misc#chunk-0", content: "Misc.", metadata: { docId: "misc", chunkIndex: 0, flag: true } }]);
    const vector = await embeddings.embedQuery("anything");
    const raw = await index.query({ namespace: "docs", topK: 10, vector, filter: { category: { $ne: "billing" } }, includeMetadata: true });
    expect(raw.matches.map((match) => match.id)).toEqual(["shipping#chunk-0"]);
    await expect(index.query({ namespace: "docs", topK: 10, vector, filter: { flag: { $in: [true] } } })).rejects.toThrow(
      /strings or numbers/,
    );
    const viaPort = await port.search({ query: "anything", topK: 10, filter: { category: { $ne: "billing" } } });
    expect(viaPort.map((hit) => hit.id).sort()).toEqual(["misc#chunk-0", "shipping#chunk-0"]);
    const flagged = await port.search({ query: "anything", topK: 10, filter: { flag: { $in: [true] } } });
    expect(flagged.map((hit) => hit.id)).toEqual(["misc#chunk-0"]);
  });

  it("R13: a record Pinecone cannot store is refused before any request, naming the record and the key", async () => {
    const server = await serve();
    const port = portOn(server);
    const nested = { id: "bad#chunk-0", content: "x", metadata: { docId: "bad", chunkIndex: 0, owner: { name: "x" } } };
    const error = await rejection(port.upsert([...records, nested]));
    expect(error).toMatchObject({ code: "pinecone_invalid_record" });
    expect((error as Error).message).toContain('"bad#chunk-0"');
    expect((error as Error).message).toContain("metadata.owner");
    const clash = { id: "clash#chunk-0", content: "x", metadata: { docId: "clash", chunkIndex: 0, text: "mine" } };
    await expect(port.upsert([clash])).rejects.toMatchObject({ code: "pinecone_invalid_record" });
    expect(server.requests).toHaveLength(0);
  });

  it("R13: embeddings of another dimension than the index are refused on the first write", async () => {
    const server = await serve({ dimension: 8 });
    const port = portOn(server);
    const error = await rejection(port.upsert(records));
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ key: "embeddings" });
    expect((error as Error).message).toContain("the index has 8");
  });
});

describe("createPineconeSearchPort options", () => {
  const index = new Pinecone({ apiKey: "unused" }).index({ host: "http://127.0.0.1:9" });
  const refused = (options: Partial<PineconeSearchPortOptions>, key: string) => {
    let caught: unknown;
    try {
      createPineconeSearchPort({ index, ...options } as PineconeSearchPortOptions);
    } catch (error) {
      caught = error;
    }
    expect(ConfigurationError.isInstance(caught), `${key}: ${String(caught)}`).toBe(true);
    expect(caught).toMatchObject({ key });
  };

  it("refuses bad options with a ConfigurationError naming the option", () => {
    refused({ embeddings }, "metric");
    refused({ embeddings, metric: "manhattan" as never }, "metric");
    refused({ metric: "cosine" }, "embeddings");
    refused({ embeddings, integrated: { textField: "t" }, metric: "cosine" }, "integrated");
    refused({ integrated: true, metric: "cosine" }, "integrated.textField");
    refused({ embeddings, metric: "cosine", hybrid: true }, "hybrid");
    refused({ embeddings, metric: "dotproduct", hybrid: { lexicalWeight: 2 } }, "hybrid.lexicalWeight");
    refused({ embeddings, metric: "dotproduct", hybrid: { lexicalWeight: 1 } }, "hybrid.lexicalWeight");
    refused({ embeddings, metric: "cosine", batchSize: 5000 }, "batchSize");
    refused({ integrated: { textField: "t" }, metric: "cosine", batchSize: 100 }, "batchSize");
    refused({ embeddings, metric: "cosine", maxRetries: -1 }, "maxRetries");
    refused({ embeddings, metric: "cosine", timeoutMs: 0 }, "timeoutMs");
    refused({ embeddings, metric: "cosine", index: {} as never }, "index");
    refused({ embeddings, metric: "euclidean", indexDescription: { metric: "cosine" } }, "metric");
    refused({ embeddings, indexDescription: { metric: 3 } }, "indexDescription.metric");
    refused({ embeddings, indexDescription: { metric: "dotproduct", vectorType: "sparse" } }, "indexDescription.vectorType");
  });

  it("takes the metric and the integrated text field from an index description", () => {
    const port = createPineconeSearchPort({
      index,
      integrated: true,
      indexDescription: {
        name: "kb",
        metric: "dotproduct",
        dimension: 1024,
        embed: { model: "llama-text-embed-v2", fieldMap: { text: "chunk_text" } },
      },
    });
    expect(port).toMatchObject({ mode: "integrated", metric: "dotproduct" });
    expect(createPineconeSearchPort({ index, embeddings, metric: "dotproduct", hybrid: true }).mode).toBe("hybrid");
  });
});

function cosine(left: number[], right: number[]): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  left.forEach((value, position) => {
    const other = right[position] ?? 0;
    dot += value * other;
    leftNorm += value * value;
    rightNorm += other * other;
  });
  return dot / Math.sqrt(leftNorm * rightNorm);
}
