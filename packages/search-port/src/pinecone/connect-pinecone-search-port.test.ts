import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPineconeTestServer, type PineconeTestServer } from "../testing/index.js";
import { connectPineconeSearchPort } from "./connect-pinecone-search-port.js";

const embeddings = createOfflineEmbeddings();
const apiKey = "pc-test-secret-4f1a9";
let server: PineconeTestServer;
beforeAll(async () => {
  server = await startPineconeTestServer({ metric: "dotproduct", indexName: "handbook", apiKey });
});
afterAll(async () => {
  await server.close();
});

const record = { id: "refunds#chunk-0", content: "Refunds go back to the original card.", metadata: { docId: "refunds", chunkIndex: 0 } };

describe("connectPineconeSearchPort", () => {
  it("R13: finds the index by name through describeIndex, which gives the metric", async () => {
    const port = await connectPineconeSearchPort({
      apiKey,
      indexName: "handbook",
      controllerHostUrl: server.url,
      namespace: "by-name",
      embeddings,
    });
    expect(port.metric).toBe("dotproduct");
    expect(server.requests.some((request) => request.path === "/indexes/handbook")).toBe(true);
  });

  it("R13: reaches the index by host and metric without a control-plane call, and reads what it wrote", async () => {
    const before = server.requests.length;
    const port = await connectPineconeSearchPort({ apiKey, host: server.url, metric: "dotproduct", namespace: "by-host", embeddings });
    await port.upsert([record]);
    const hits = await port.search({ query: "refund to the card", topK: 2 });
    expect(hits.map((hit) => hit.id)).toEqual(["refunds#chunk-0"]);
    expect(server.requests.slice(before).some((request) => request.path.startsWith("/indexes"))).toBe(false);
  });

  it("says the key is missing without a call, and never repeats a key Pinecone refuses", async () => {
    await expect(connectPineconeSearchPort({ apiKey: "", host: server.url, metric: "cosine", embeddings })).rejects.toMatchObject({
      key: "apiKey",
    });
    const wrongKey = "pc-wrong-secret-77c2";
    const port = await connectPineconeSearchPort({ apiKey: wrongKey, host: server.url, metric: "dotproduct", embeddings, maxRetries: 0 });
    const error: unknown = await port.search({ query: "refund", topK: 1 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "pinecone_rejected", status: 401 });
    expect(String((error as Error).message)).not.toContain(wrongKey);
  });

  it.each([
    [{}, "indexName"],
    [{ indexName: "" }, "indexName"],
    [{ host: "not a url" }, "host"],
    [{ host: "http://127.0.0.1:1" }, "metric"],
  ])("refuses %j with an error naming %s", async (options, key) => {
    await expect(connectPineconeSearchPort({ apiKey, embeddings, ...options })).rejects.toMatchObject({ key });
  });
});
