import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { PineconeTestRequest, PineconeTestServer, PineconeTestServerOptions } from "./pinecone-test-server.js";
import { FaultQueue } from "./pinecone-server/fault-queue.js";
import { handleRequest } from "./pinecone-server/handle-request.js";
import { PineconeTestIndex } from "./pinecone-server/pinecone-test-index.js";
import { sendFailure } from "./pinecone-server/send-response.js";

/**
 * Starts a local HTTP server that speaks the subset of Pinecone's API the `./pinecone` adapter
 * uses, so tests can point the real `@pinecone-database/pinecone` client at it
 * (`new Pinecone({ apiKey, controllerHostUrl: url }).index({ host: url })`):
 *
 * - data plane: `POST /query`, `POST /vectors/upsert`, `POST /vectors/delete`,
 *   `GET /vectors/list` (by prefix, paginated), `GET /vectors/fetch`,
 *   `POST /describe_index_stats`, and for integrated inference
 *   `POST /records/namespaces/{namespace}/search` and `.../upsert` (NDJSON);
 * - control plane: `GET /indexes/{name}` (what `pc.describeIndex(name)` reads).
 *
 * Filters are evaluated with `matchesFilter`, with Pinecone's documented differences:
 * `$ne` and `$nin` do not match records that lack the field, and `$in` / `$nin` take only
 * strings and numbers (a boolean is a 400). Scores follow the metric: cosine similarity,
 * dot product (dense plus sparse), or squared Euclidean distance (lowest first). Bodies are
 * checked as Pinecone checks them (dimension, metadata types, batch limits), with 400 answers.
 * `inject` adds 429 / 5xx answers, slow answers and malformed bodies.
 *
 * The parts are in `pinecone-server/`: the index and its scoring, the vector and record
 * operations, the filter check, the fault queue and the request handling.
 */
export async function startPineconeTestServer(options: PineconeTestServerOptions = {}): Promise<PineconeTestServer> {
  const index = new PineconeTestIndex(options);
  const faults = new FaultQueue();
  const requests: PineconeTestRequest[] = [];
  const server = createServer((request, response) => {
    handleRequest({ index, faults, requests }, request, response).catch((error: unknown) => sendFailure(response, error));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  index.url = url;

  return {
    url,
    requests,
    inject(fault) {
      faults.push(fault);
    },
    clearFaults() {
      faults.clear();
    },
    recordCount(name = "") {
      return index.namespaces.get(name)?.size ?? 0;
    },
    close() {
      faults.clearTimers();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
