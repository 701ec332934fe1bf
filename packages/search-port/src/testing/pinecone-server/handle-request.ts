import type { IncomingMessage, ServerResponse } from "node:http";
import type { PineconeTestFault, PineconeTestRequest } from "../pinecone-test-server.js";
import { describeTestIndex } from "./describe-test-index.js";
import type { FaultQueue } from "./fault-queue.js";
import { HttpFailure } from "./http-failure.js";
import type { PineconeTestIndex } from "./pinecone-test-index.js";
import { recordsPathOf } from "./records-path.js";
import { searchRecords, upsertRecords } from "./record-operations.js";
import { parseJsonBody, parseRequest, readRequestBody, requestNamespace } from "./request-body.js";
import { deleteSchema, querySchema, searchRecordsSchema, statsSchema, upsertSchema } from "./request-schemas.js";
import { sendJson, sendResponse } from "./send-response.js";
import { deleteVectors, describeIndexStats, fetchVectors, listVectors, queryVectors, upsertVectors } from "./vector-operations.js";

/** What the server holds: the index, the queued faults, and the requests received. */
export interface PineconeTestServerState {
  index: PineconeTestIndex;
  faults: FaultQueue;
  requests: PineconeTestRequest[];
}

/**
 * Answers one request: it is recorded, a queued fault for its path applies first (a delay,
 * then an error status or a malformed body), then the API key is checked and the route runs.
 * A failure is thrown (an `HttpFailure` for the answers Pinecone gives).
 */
export async function handleRequest(state: PineconeTestServerState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const address = new URL(request.url ?? "/", "http://127.0.0.1");
  const path = address.pathname;
  const method = request.method ?? "GET";
  const body = await readRequestBody(request);
  state.requests.push({ method, path, ...requestNamespace(address, body, recordsPathOf(path)) });

  const fault = state.faults.take(path);
  if (fault?.delayMs !== undefined) await state.faults.wait(fault.delayMs);
  if (fault !== undefined && answerFault(fault, path, response)) return;

  const key = request.headers["api-key"];
  const expectedKey = state.index.options.apiKey;
  if (typeof key !== "string" || key === "" || (expectedKey !== undefined && key !== expectedKey)) {
    throw new HttpFailure(401, "Invalid API Key");
  }
  await route(state.index, { method, path, address, body }, response);
}

/** Answers as the fault says (true), or leaves the request to its route (false): a fault with only a delay, or a wrong shape for a path that has none. */
function answerFault(fault: PineconeTestFault, path: string, response: ServerResponse): boolean {
  if (fault.status !== undefined) {
    throw new HttpFailure(fault.status, fault.message ?? `injected HTTP ${fault.status}`);
  }
  if (fault.malformed === "not-json") {
    sendResponse(response, 200, "<html>upstream proxy error</html>");
    return true;
  }
  if (fault.malformed === "wrong-shape" && path === "/vectors/fetch") {
    // The client maps `vectors` key by key, so only a wrong record inside it reaches the adapter.
    sendResponse(response, 200, JSON.stringify({ vectors: { "refunds#chunk-0": { id: 7, metadata: "none" } }, namespace: "" }));
    return true;
  }
  if (fault.malformed === "wrong-shape") {
    sendResponse(response, 200, JSON.stringify({ matches: "not a list", vectors: 7, namespaces: 3, result: { hits: "none" } }));
    return true;
  }
  return false;
}

interface RoutedRequest {
  method: string;
  path: string;
  address: URL;
  body: string;
}

async function route(index: PineconeTestIndex, request: RoutedRequest, response: ServerResponse): Promise<void> {
  const { method, path, address, body } = request;
  const recordsPath = recordsPathOf(path);
  if (method === "GET" && path.startsWith("/indexes/")) {
    const name = decodeURIComponent(path.slice("/indexes/".length));
    if (name !== index.indexName) throw new HttpFailure(404, `Resource ${name} not found`);
    sendJson(response, 200, describeTestIndex(index));
  } else if (method === "POST" && path === "/query") {
    sendJson(response, 200, queryVectors(index, parseRequest(querySchema, parseJsonBody(body))));
  } else if (method === "POST" && path === "/vectors/upsert") {
    sendJson(response, 200, upsertVectors(index, parseRequest(upsertSchema, parseJsonBody(body))));
  } else if (method === "POST" && path === "/vectors/delete") {
    sendJson(response, 200, deleteVectors(index, parseRequest(deleteSchema, parseJsonBody(body))));
  } else if (method === "GET" && path === "/vectors/list") {
    sendJson(response, 200, listVectors(index, address.searchParams));
  } else if (method === "GET" && path === "/vectors/fetch") {
    sendJson(response, 200, fetchVectors(index, address.searchParams));
  } else if (method === "POST" && path === "/describe_index_stats") {
    sendJson(response, 200, describeIndexStats(index, parseRequest(statsSchema, body === "" ? {} : parseJsonBody(body))));
  } else if (method === "POST" && recordsPath !== null) {
    const target = decodeURIComponent(recordsPath[1] ?? "");
    if (recordsPath[2] === "search") {
      sendJson(response, 200, await searchRecords(index, target, parseRequest(searchRecordsSchema, parseJsonBody(body))));
    } else {
      await upsertRecords(index, target, body);
      sendResponse(response, 201, "");
    }
  } else {
    throw new HttpFailure(404, `no route for ${method} ${path}`);
  }
}
