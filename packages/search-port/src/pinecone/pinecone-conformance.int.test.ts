/**
 * The conformance suite against a real Pinecone index. Left out of `pnpm test`; run with
 * `pnpm --filter @lookup-knowledge/search-port test:int` and:
 *
 * - `PINECONE_API_KEY`: an API key (read here only, passed to the client, never printed);
 * - `PINECONE_INDEX`: the name of a serverless index: either a dense index of dimension 356
 *   (the offline embedder's; `cosine`, `euclidean`, or `dotproduct`, which also runs the
 *   sparse-dense hybrid mode), or an index with integrated inference (its field map's text
 *   field is used);
 * - `PINECONE_NAMESPACE` (optional): the prefix of the namespaces the suite creates (default
 *   `lookup-knowledge-conformance`); each store gets its own namespace, deleted afterwards;
 * - `PINECONE_HOST` (optional): the index host, instead of looking it up by name.
 */
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { Pinecone } from "@pinecone-database/pinecone";
import { afterAll, beforeAll, describe, it } from "vitest";
import { describePortConformance } from "../testing/index.js";
import { createPineconeSearchPort } from "./create-pinecone-search-port.js";
import type { PineconeSearchPortOptions } from "./pinecone-search-port-options.js";

const apiKey = process.env["PINECONE_API_KEY"];
const indexName = process.env["PINECONE_INDEX"];
const namespacePrefix = process.env["PINECONE_NAMESPACE"] ?? "lookup-knowledge-conformance";
const host = process.env["PINECONE_HOST"];

const test = { describe, it, beforeAll, afterAll };

if (apiKey === undefined || apiKey === "" || indexName === undefined || indexName === "") {
  describe.skip("Pinecone live conformance (set PINECONE_API_KEY and PINECONE_INDEX)", () => {
    it("needs a Pinecone index", () => {});
  });
} else {
  const client = new Pinecone({ apiKey });
  const run = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  let stores = 0;
  let base: Omit<PineconeSearchPortOptions, "index" | "namespace"> | undefined;

  beforeAll(async () => {
    const indexDescription = await client.describeIndex(indexName);
    const integrated = indexDescription.embed !== undefined && indexDescription.embed !== null;
    base = integrated
      ? { integrated: true, indexDescription }
      : {
          embeddings: createOfflineEmbeddings(),
          indexDescription,
          ...(indexDescription.metric === "dotproduct" ? { hybrid: true } : {}),
        };
  });

  describePortConformance(
    `Pinecone live index ${indexName}`,
    () => {
      if (base === undefined) throw new Error("the index description was not read");
      stores += 1;
      const namespace = `${namespacePrefix}-${run}-${stores}`;
      const index = client.index(host === undefined ? { name: indexName } : { host });
      const port = createPineconeSearchPort({ index, namespace, ...base });
      return {
        port,
        writer: port,
        async settle({ recordCount }) {
          const deadline = Date.now() + 60_000;
          for (;;) {
            const stats = await index.describeIndexStats();
            if ((stats.namespaces?.[namespace]?.recordCount ?? 0) === recordCount || Date.now() > deadline) return;
            await new Promise((resolve) => setTimeout(resolve, 1_000));
          }
        },
        async close() {
          await index.deleteNamespace(namespace).catch(() => {});
        },
      };
    },
    { test },
  );
}
