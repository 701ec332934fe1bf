import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { SearchHit } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { canFetchRecords } from "../knowledge-record-reader.js";
import { createPineconeSearchPort } from "./create-pinecone-search-port.js";
import { embeddings, indexOf, portOn, quick, requestsTo, usePineconeTestServers } from "./pinecone-port-test-fixtures.js";
import type { PineconeSearchPort } from "./pinecone-search-port.js";

const { serve } = usePineconeTestServers();

const records: KnowledgeRecord[] = [
  {
    id: "refunds#chunk-0",
    content: "Refunds are paid back to the original card within five business days.",
    metadata: { docId: "refunds", chunkIndex: 0, title: "Refund policy", category: "billing", tags: ["money", "cards"], draft: false },
  },
  {
    id: "refunds#chunk-1",
    content: "A refund of a gift card is paid as store credit.",
    metadata: { docId: "refunds", chunkIndex: 1, title: "Refund policy", category: "billing", tags: [], draft: true },
  },
  {
    id: "shipping#chunk-0",
    content: "Parcels leave the Rotterdam warehouse every weekday.",
    metadata: { docId: "shipping", chunkIndex: 0, title: "Shipping", category: "logistics", tags: ["parcels"], draft: false },
  },
];

/** The search hit of `id` for a query that finds every record, without its score. */
async function searchedRecord(port: PineconeSearchPort, id: string): Promise<Omit<SearchHit, "score">> {
  const hits = await port.search({ query: "refunds parcels card warehouse", topK: 10 });
  const hit = hits.find((candidate) => candidate.id === id);
  if (hit === undefined) throw new Error(`search did not return ${id}`);
  const { score: _score, ...rest } = hit;
  return rest;
}

async function expectReadsAsSearch(port: PineconeSearchPort): Promise<void> {
  expect(canFetchRecords(port)).toBe(true);
  const fetched = await port.fetchRecords(["shipping#chunk-0", "nope#chunk-0", "refunds#chunk-1", "refunds#chunk-0", "shipping#chunk-0"]);
  expect(fetched.map((record) => record?.id)).toEqual([
    "shipping#chunk-0",
    undefined,
    "refunds#chunk-1",
    "refunds#chunk-0",
    "shipping#chunk-0",
  ]);
  for (const record of records) {
    const read = fetched.find((candidate) => candidate?.id === record.id);
    expect(read).toEqual({ id: record.id, content: record.content, metadata: record.metadata });
    expect(read).toEqual(await searchedRecord(port, record.id));
  }
}

describe("createPineconeSearchPort: fetchRecords against the real client and the local server", () => {
  it("issue 12: dense mode reads records back by id, in the order asked, exactly as search returns them; unknown ids are undefined", async () => {
    const server = await serve();
    const port = portOn(server);
    await port.upsert(records);
    await expectReadsAsSearch(port);
    expect(server.requests.filter((request) => request.path === "/vectors/fetch").map((request) => request.namespace)).toEqual(["docs"]);
    expect(await portOn(server, { namespace: "other" }).fetchRecords(["refunds#chunk-0"])).toEqual([undefined]);
  });

  it("issue 12: a custom textKey is taken out of the metadata as the content", async () => {
    const server = await serve();
    const port = portOn(server, { textKey: "body" });
    await port.upsert(records);
    const [record] = await port.fetchRecords(["refunds#chunk-0"]);
    expect(record).toEqual({ id: "refunds#chunk-0", content: records[0]?.content, metadata: records[0]?.metadata });
  });

  it("issue 12: integrated mode reads records back from their fields, exactly as searchRecords returns them", async () => {
    const server = await serve({
      integrated: {
        textField: "chunk_text",
        embed: (texts, kind) =>
          kind === "query" ? Promise.all(texts.map((text) => embeddings.embedQuery(text))) : embeddings.embedDocuments(texts),
      },
    });
    const port = createPineconeSearchPort({
      index: indexOf(server),
      namespace: "docs",
      integrated: { textField: "chunk_text" },
      metric: "cosine",
      ...quick,
    });
    await port.upsert(records);
    await expectReadsAsSearch(port);
  });

  it("issue 12: refuses ids that are not an array of non-empty strings, or more than 100, before any request", async () => {
    const server = await serve();
    const port = portOn(server);
    const refused = async (ids: unknown) => {
      const error = await port.fetchRecords(ids as string[]).catch((caught: unknown) => caught);
      expect(LookupKnowledgeError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: "invalid_argument" });
      return (error as Error).message;
    };
    expect(await refused("refunds#chunk-0")).toMatch(/ids must be an array/);
    expect(await refused(["refunds#chunk-0", ""])).toMatch(/ids\[1\] must be a non-empty string/);
    expect(await refused(Array.from({ length: 101 }, (_, index) => `x${index}`))).toMatch(/at most 100 ids/);
    expect(await port.fetchRecords([])).toEqual([]);
    expect(requestsTo(server, "/vectors/fetch")).toBe(0);
    const hundred = await port.fetchRecords(Array.from({ length: 100 }, (_, index) => `x#chunk-${index}`));
    expect(hundred).toHaveLength(100);
    expect(hundred.every((record) => record === undefined)).toBe(true);
  });

  it("issue 12: an aborted signal rejects with its reason, before a request or while Pinecone is slow, without a retry", async () => {
    const server = await serve();
    const port = portOn(server, { timeoutMs: 60_000 });
    const early = new AbortController();
    early.abort(new Error("stop"));
    await expect(port.fetchRecords(["refunds#chunk-0"], { signal: early.signal })).rejects.toThrow("stop");
    expect(requestsTo(server, "/vectors/fetch")).toBe(0);
    server.inject({ path: "/vectors/fetch", delayMs: 60_000 });
    const controller = new AbortController();
    const reason = new Error("the caller gave up");
    const pending = port.fetchRecords(["refunds#chunk-0"], { signal: controller.signal });
    while (requestsTo(server, "/vectors/fetch") === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(requestsTo(server, "/vectors/fetch")).toBe(1);
  });

  it("issue 12: a 5xx or 429 is retried as for search; a 4xx is pinecone_rejected at once, naming fetch", async () => {
    const server = await serve();
    const port = portOn(server);
    await port.upsert(records);
    server.inject({ path: "/vectors/fetch", status: 503 });
    server.inject({ path: "/vectors/fetch", status: 429 });
    const [record] = await port.fetchRecords(["refunds#chunk-0"]);
    expect(record?.content).toBe(records[0]?.content);
    expect(requestsTo(server, "/vectors/fetch")).toBe(3);

    server.inject({ path: "/vectors/fetch", status: 500, times: 100 });
    const limited = portOn(server, { maxRetries: 1 });
    await expect(limited.fetchRecords(["refunds#chunk-0"])).rejects.toMatchObject({
      code: "pinecone_unavailable",
      operation: "fetch",
      attempts: 2,
    });
    server.clearFaults();

    const before = requestsTo(server, "/vectors/fetch");
    server.inject({ path: "/vectors/fetch", status: 400, message: "ids are too long" });
    const error = await port.fetchRecords(["refunds#chunk-0"]).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "pinecone_rejected", operation: "fetch", status: 400, retryable: false });
    expect((error as Error).message).toContain("Pinecone refused fetch (HTTP 400)");
    expect((error as Error).message).toContain("ids are too long");
    expect(requestsTo(server, "/vectors/fetch") - before).toBe(1);
  });

  it("issue 12: a body that is not JSON, or a record of the wrong shape, is a pinecone_malformed_response", async () => {
    const server = await serve();
    const port = portOn(server);
    server.inject({ path: "/vectors/fetch", malformed: "not-json" });
    await expect(port.fetchRecords(["refunds#chunk-0"])).rejects.toMatchObject({ code: "pinecone_malformed_response", operation: "fetch" });
    server.inject({ path: "/vectors/fetch", malformed: "wrong-shape" });
    const error = await port.fetchRecords(["refunds#chunk-0"]).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "pinecone_malformed_response", operation: "fetch" });
    expect((error as Error).message).toMatch(/refunds#chunk-0\.id/);
  });
});
