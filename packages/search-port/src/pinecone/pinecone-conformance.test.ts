import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { Pinecone } from "@pinecone-database/pinecone";
import { afterAll, beforeAll, describe, it } from "vitest";
import { describePortConformance, startPineconeTestServer } from "../testing/index.js";
import type { PineconeTestMetric, PineconeTestServer } from "../testing/index.js";
import { createPineconeSearchPort } from "./create-pinecone-search-port.js";
import type { PineconeSearchPortOptions } from "./pinecone-search-port-options.js";

const test = { describe, it, beforeAll, afterAll };
const embeddings = createOfflineEmbeddings();

/**
 * The conformance suite against the real client pointed at the local Pinecone emulation, one
 * server per configuration and one namespace per store.
 */
function describeAgainstTestServer(
  name: string,
  metric: PineconeTestMetric,
  portOptions: Omit<PineconeSearchPortOptions, "index" | "namespace">,
  integrated = false,
): void {
  let server: PineconeTestServer | undefined;
  let stores = 0;
  beforeAll(async () => {
    server = await startPineconeTestServer({
      metric,
      ...(integrated
        ? {
            integrated: {
              textField: "chunk_text",
              embed: (texts, kind) =>
                kind === "query" ? Promise.all(texts.map((text) => embeddings.embedQuery(text))) : embeddings.embedDocuments(texts),
            },
          }
        : {}),
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  describePortConformance(
    name,
    () => {
      if (server === undefined) throw new Error("the test server did not start");
      const index = new Pinecone({ apiKey: "test-key", maxRetries: 0 }).index({ host: server.url });
      stores += 1;
      const port = createPineconeSearchPort({ index, namespace: `store-${stores}`, ...portOptions });
      return { port, writer: port };
    },
    { test },
  );
}

describeAgainstTestServer("Pinecone, dense, cosine", "cosine", { embeddings, metric: "cosine" });
describeAgainstTestServer("Pinecone, sparse-dense hybrid, dotproduct", "dotproduct", {
  embeddings,
  metric: "dotproduct",
  hybrid: { lexicalWeight: 0.3 },
});
describeAgainstTestServer("Pinecone, dense, euclidean", "euclidean", { embeddings, metric: "euclidean" });
describeAgainstTestServer("Pinecone, integrated inference", "cosine", { integrated: { textField: "chunk_text" }, metric: "cosine" }, true);
