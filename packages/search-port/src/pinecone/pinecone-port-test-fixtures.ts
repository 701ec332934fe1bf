// Test fixtures shared by the create-pinecone-search-port*.test.ts files (not built, not shipped):
// the local Pinecone-speaking server, the real client pointed at it, and a port on its "docs" namespace.
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { Pinecone } from "@pinecone-database/pinecone";
import { afterEach } from "vitest";
import { startPineconeTestServer } from "../testing/index.js";
import type { PineconeTestServer, PineconeTestServerOptions } from "../testing/index.js";
import { createPineconeSearchPort } from "./create-pinecone-search-port.js";
import type { PineconeIndex, PineconeSearchPort } from "./pinecone-search-port.js";
import type { PineconeSearchPortOptions } from "./pinecone-search-port-options.js";

/** The offline embedder every port of these tests uses. */
export const embeddings = createOfflineEmbeddings();

/** Fast retries so the tests do not wait on backoff. */
export const quick = { retryBaseDelayMs: 1, retryMaxDelayMs: 5 } as const;

/**
 * `serve(options)` starts a local Pinecone test server that is closed after each test of the
 * calling file (call `usePineconeTestServers()` once, at the top level of the file).
 */
export function usePineconeTestServers(): { serve(options?: PineconeTestServerOptions): Promise<PineconeTestServer> } {
  const servers: PineconeTestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return {
    async serve(options: PineconeTestServerOptions = {}): Promise<PineconeTestServer> {
      const server = await startPineconeTestServer(options);
      servers.push(server);
      return server;
    },
  };
}

/** The real Pinecone client's index handle on the test server, with no client-side retries. */
export function indexOf(server: PineconeTestServer, apiKey = "test-key"): PineconeIndex {
  return new Pinecone({ apiKey, maxRetries: 0 }).index({ host: server.url });
}

/** A dense (cosine) port on the server's "docs" namespace, with quick retries. */
export function portOn(server: PineconeTestServer, options: Partial<PineconeSearchPortOptions> = {}): PineconeSearchPort {
  return createPineconeSearchPort({ index: indexOf(server), namespace: "docs", embeddings, metric: "cosine", ...quick, ...options });
}

/** How many requests the server received on `path`. */
export const requestsTo = (server: PineconeTestServer, path: string) => server.requests.filter((request) => request.path === path).length;

/** An index whose methods answer nothing, and embeddings of one number: for tests that only read options. */
export const idleIndex = Object.fromEntries(
  ["query", "fetch", "upsert", "deleteMany", "listPaginated", "describeIndexStats", "searchRecords", "upsertRecords"].map((name) => [
    name,
    async () => ({}),
  ]),
) as unknown as PineconeIndex;
export const oneNumberEmbeddings = { embedQuery: async () => [1], embedDocuments: async () => [[1]] } as unknown as EmbeddingsInterface;
