// Over 300 lines on purpose: one in-process fake of the Pinecone data plane (query, upsert, list,
// delete, records search, stats) with its fault injection, kept whole so the fake stays one thing to read.
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { MetadataFilter } from "@lookup-knowledge/core";
import { z } from "zod";
import { matchesFilter } from "../matches-filter.js";
import type {
  PineconeTestFault,
  PineconeTestMetric,
  PineconeTestRequest,
  PineconeTestServer,
  PineconeTestServerOptions,
} from "./pinecone-test-server.js";

interface StoredVector {
  id: string;
  values: number[];
  sparseValues?: { indices: number[]; values: number[] };
  metadata?: Record<string, unknown>;
}

/** An answer that ends the request with an HTTP error, the way Pinecone words one. */
class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const maxUpsertVectors = 1000;
const maxUpsertRecords = 96;
const maxDeleteIds = 1000;
const maxListLimit = 100;

const metadataValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())], {
  error: "metadata values must be strings, numbers, booleans or lists of strings",
});
const metadataSchema = z.record(z.string(), metadataValue);
const sparseSchema = z
  .object({ indices: z.array(z.number().int().nonnegative().max(0xffff_ffff)), values: z.array(z.number()) })
  .refine((sparse) => sparse.indices.length === sparse.values.length, "sparse indices and values differ in length")
  .refine((sparse) => new Set(sparse.indices).size === sparse.indices.length, "sparse indices must be unique");
const vectorSchema = z.object({
  id: z.string().min(1, "a vector id may not be empty"),
  values: z.array(z.number()).optional(),
  sparseValues: sparseSchema.optional(),
  metadata: metadataSchema.optional(),
});
const upsertSchema = z.object({ vectors: z.array(vectorSchema), namespace: z.string().optional() });
const querySchema = z.object({
  namespace: z.string().optional(),
  topK: z.number().int().min(1).max(10_000),
  filter: z.record(z.string(), z.unknown()).optional(),
  includeValues: z.boolean().optional(),
  includeMetadata: z.boolean().optional(),
  vector: z.array(z.number()).optional(),
  sparseVector: sparseSchema.optional(),
  id: z.string().optional(),
});
const deleteSchema = z.object({
  ids: z.array(z.string()).optional(),
  deleteAll: z.boolean().optional(),
  namespace: z.string().optional(),
  filter: z.record(z.string(), z.unknown()).optional(),
});
const statsSchema = z.object({ filter: z.record(z.string(), z.unknown()).optional() });
const searchRecordsSchema = z.object({
  query: z.object({
    top_k: z.number().int().min(1).max(10_000),
    inputs: z.object({ text: z.string() }),
    filter: z.record(z.string(), z.unknown()).optional(),
  }),
  fields: z.array(z.string()).optional(),
});

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
 */
export async function startPineconeTestServer(options: PineconeTestServerOptions = {}): Promise<PineconeTestServer> {
  const metric: PineconeTestMetric = options.metric ?? "cosine";
  const indexName = options.indexName ?? "test-index";
  let dimension = options.dimension;
  const namespaces = new Map<string, Map<string, StoredVector>>();
  const faults: Array<Required<Pick<PineconeTestFault, "times">> & PineconeTestFault> = [];
  const requests: PineconeTestRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let url = "";

  const namespace = (name: string | undefined): Map<string, StoredVector> => {
    const key = name ?? "";
    let vectors = namespaces.get(key);
    if (vectors === undefined) {
      vectors = new Map();
      namespaces.set(key, vectors);
    }
    return vectors;
  };

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  function takeFault(path: string): PineconeTestFault | undefined {
    const index = faults.findIndex(
      (fault) => fault.path === undefined || (typeof fault.path === "string" ? fault.path === path : fault.path.test(path)),
    );
    if (index < 0) return undefined;
    const fault = faults[index] as (typeof faults)[number];
    fault.times -= 1;
    if (fault.times <= 0) faults.splice(index, 1);
    return fault;
  }

  function checkDimension(values: number[] | undefined, what: string): void {
    if (values === undefined) return;
    if (dimension === undefined) dimension = values.length;
    if (values.length !== dimension) {
      throw new HttpFailure(400, `Vector dimension ${values.length} does not match the dimension of the index ${dimension} (${what})`);
    }
  }

  function score(vector: StoredVector, dense: number[] | undefined, sparse: StoredVector["sparseValues"]): number {
    const values = vector.values;
    if (metric === "euclidean") {
      let sum = 0;
      for (let i = 0; i < values.length; i += 1) sum += ((values[i] ?? 0) - (dense?.[i] ?? 0)) ** 2;
      return sum;
    }
    let dot = 0;
    for (let i = 0; i < values.length; i += 1) dot += (values[i] ?? 0) * (dense?.[i] ?? 0);
    if (metric === "cosine") {
      const norms = norm(values) * norm(dense ?? []);
      return norms === 0 ? 0 : dot / norms;
    }
    if (sparse !== undefined && vector.sparseValues !== undefined) {
      const weights = new Map<number, number>();
      sparse.indices.forEach((index, position) => {
        weights.set(index, sparse.values[position] ?? 0);
      });
      vector.sparseValues.indices.forEach((index, position) => {
        dot += (weights.get(index) ?? 0) * (vector.sparseValues?.values[position] ?? 0);
      });
    }
    return dot;
  }

  function rank(
    vectors: Map<string, StoredVector>,
    dense: number[] | undefined,
    sparse: StoredVector["sparseValues"],
    filter: MetadataFilter | undefined,
    topK: number,
  ): Array<{ vector: StoredVector; score: number }> {
    const scored: Array<{ vector: StoredVector; score: number }> = [];
    for (const vector of vectors.values()) {
      if (filter !== undefined && options.ignoreFilters !== true && !matchesFilter(vector.metadata ?? {}, filter)) continue;
      scored.push({ vector, score: score(vector, dense, sparse) });
    }
    const direction = metric === "euclidean" ? 1 : -1;
    scored.sort((left, right) => direction * (left.score - right.score) || (left.vector.id < right.vector.id ? -1 : 1));
    return scored.slice(0, topK);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const address = new URL(request.url ?? "/", "http://127.0.0.1");
    const path = address.pathname;
    const method = request.method ?? "GET";
    const body = await readBody(request);
    const recordsPath = /^\/records\/namespaces\/([^/]*)\/(search|upsert)$/.exec(path);
    requests.push({ method, path, ...requestNamespace(address, body, recordsPath) });

    const fault = takeFault(path);
    if (fault?.delayMs !== undefined) await wait(fault.delayMs);
    if (fault?.status !== undefined) {
      throw new HttpFailure(fault.status, fault.message ?? `injected HTTP ${fault.status}`);
    }
    if (fault?.malformed === "not-json") {
      send(response, 200, "<html>upstream proxy error</html>");
      return;
    }
    if (fault?.malformed === "wrong-shape" && path === "/vectors/fetch") {
      // The client maps `vectors` key by key, so only a wrong record inside it reaches the adapter.
      send(response, 200, JSON.stringify({ vectors: { "refunds#chunk-0": { id: 7, metadata: "none" } }, namespace: "" }));
      return;
    }
    if (fault?.malformed === "wrong-shape") {
      send(response, 200, JSON.stringify({ matches: "not a list", vectors: 7, namespaces: 3, result: { hits: "none" } }));
      return;
    }

    const key = request.headers["api-key"];
    if (typeof key !== "string" || key === "" || (options.apiKey !== undefined && key !== options.apiKey)) {
      throw new HttpFailure(401, "Invalid API Key");
    }

    if (method === "GET" && path.startsWith("/indexes/")) {
      const name = decodeURIComponent(path.slice("/indexes/".length));
      if (name !== indexName) throw new HttpFailure(404, `Resource ${name} not found`);
      sendJson(response, 200, describeIndex());
      return;
    }
    if (method === "POST" && path === "/query") {
      sendJson(response, 200, query(parse(querySchema, json(body))));
      return;
    }
    if (method === "POST" && path === "/vectors/upsert") {
      sendJson(response, 200, upsert(parse(upsertSchema, json(body))));
      return;
    }
    if (method === "POST" && path === "/vectors/delete") {
      sendJson(response, 200, remove(parse(deleteSchema, json(body))));
      return;
    }
    if (method === "GET" && path === "/vectors/list") {
      sendJson(response, 200, list(address.searchParams));
      return;
    }
    if (method === "GET" && path === "/vectors/fetch") {
      sendJson(response, 200, fetchVectors(address.searchParams));
      return;
    }
    if (method === "POST" && path === "/describe_index_stats") {
      sendJson(response, 200, stats(parse(statsSchema, body === "" ? {} : json(body))));
      return;
    }
    if (method === "POST" && recordsPath !== null) {
      const target = decodeURIComponent(recordsPath[1] ?? "");
      if (recordsPath[2] === "search") {
        sendJson(response, 200, await searchRecords(target, parse(searchRecordsSchema, json(body))));
      } else {
        await upsertRecords(target, body);
        send(response, 201, "");
      }
      return;
    }
    throw new HttpFailure(404, `no route for ${method} ${path}`);
  }

  function describeIndex(): Record<string, unknown> {
    const integrated = options.integrated;
    return {
      name: indexName,
      dimension: dimension ?? null,
      metric,
      host: url,
      deletion_protection: "disabled",
      tags: null,
      spec: { serverless: { cloud: "aws", region: "us-east-1" } },
      status: { ready: true, state: "Ready" },
      vector_type: "dense",
      ...(integrated === undefined
        ? {}
        : {
            embed: {
              model: integrated.model ?? "test-embedder",
              metric,
              dimension: dimension ?? null,
              vector_type: "dense",
              field_map: { text: integrated.textField },
            },
          }),
    };
  }

  function query(body: z.infer<typeof querySchema>): unknown {
    const vectors = namespace(body.namespace);
    let dense = body.vector;
    if (body.id !== undefined) dense = vectors.get(body.id)?.values;
    if (dense === undefined) throw new HttpFailure(400, "a query needs a vector or an id");
    checkDimension(dense, "query");
    if (body.sparseVector !== undefined && metric !== "dotproduct") {
      throw new HttpFailure(400, "Sparse vectors are only supported for indexes with the dotproduct metric");
    }
    const filter = body.filter === undefined ? undefined : pineconeFilter(body.filter);
    const matches = rank(vectors, dense, body.sparseVector, filter, body.topK).map(({ vector, score: value }) => ({
      id: vector.id,
      score: value,
      values: body.includeValues === true ? vector.values : [],
      ...(body.includeMetadata === true && vector.metadata !== undefined ? { metadata: vector.metadata } : {}),
    }));
    return { results: [], matches, namespace: body.namespace ?? "", usage: { readUnits: 1 } };
  }

  function upsert(body: z.infer<typeof upsertSchema>): unknown {
    if (body.vectors.length > maxUpsertVectors) {
      throw new HttpFailure(400, `Cannot upsert more than ${maxUpsertVectors} vectors in one request`);
    }
    for (const vector of body.vectors) {
      if (vector.values === undefined || vector.values.length === 0) {
        throw new HttpFailure(400, `Vector ${vector.id} has no dense values`);
      }
      checkDimension(vector.values, `vector ${vector.id}`);
      if (metric === "cosine" && vector.values.every((value) => value === 0)) {
        throw new HttpFailure(400, `Dense vectors must contain at least one non-zero value (vector ${vector.id})`);
      }
      if (vector.sparseValues !== undefined && metric !== "dotproduct") {
        throw new HttpFailure(400, "Sparse values are only supported for indexes with the dotproduct metric");
      }
    }
    const vectors = namespace(body.namespace);
    for (const vector of body.vectors) {
      vectors.set(vector.id, {
        id: vector.id,
        values: vector.values ?? [],
        ...(vector.sparseValues === undefined ? {} : { sparseValues: vector.sparseValues }),
        ...(vector.metadata === undefined ? {} : { metadata: vector.metadata }),
      });
    }
    return { upsertedCount: body.vectors.length };
  }

  function remove(body: z.infer<typeof deleteSchema>): unknown {
    const vectors = namespace(body.namespace);
    if (body.deleteAll === true) {
      vectors.clear();
    } else if (body.ids !== undefined) {
      if (body.ids.length > maxDeleteIds) throw new HttpFailure(400, `Cannot delete more than ${maxDeleteIds} ids in one request`);
      for (const id of body.ids) vectors.delete(id);
    } else if (body.filter !== undefined) {
      throw new HttpFailure(400, "Serverless and starter indexes do not support deleting with metadata filtering");
    } else {
      throw new HttpFailure(400, "a delete needs ids, deleteAll or a filter");
    }
    return {};
  }

  function list(parameters: URLSearchParams): unknown {
    const target = parameters.get("namespace") ?? "";
    const prefix = parameters.get("prefix") ?? "";
    const limit = Number(parameters.get("limit") ?? maxListLimit);
    if (!Number.isInteger(limit) || limit < 1 || limit > maxListLimit) {
      throw new HttpFailure(400, `limit must be between 1 and ${maxListLimit}`);
    }
    const token = parameters.get("paginationToken");
    const start = token === null ? 0 : Number(Buffer.from(token, "base64url").toString("utf8"));
    if (!Number.isInteger(start) || start < 0) throw new HttpFailure(400, "invalid pagination token");
    const ids = [...namespace(target).keys()].filter((id) => id.startsWith(prefix)).sort();
    const page = ids.slice(start, start + limit);
    const next = start + limit < ids.length ? Buffer.from(String(start + limit), "utf8").toString("base64url") : undefined;
    return {
      vectors: page.map((id) => ({ id })),
      ...(next === undefined ? {} : { pagination: { next } }),
      namespace: target,
      usage: { readUnits: 1 },
    };
  }

  function fetchVectors(parameters: URLSearchParams): unknown {
    const target = parameters.get("namespace") ?? "";
    const vectors = namespace(target);
    const found: Record<string, StoredVector> = {};
    for (const id of parameters.getAll("ids")) {
      const vector = vectors.get(id);
      if (vector !== undefined) found[id] = vector;
    }
    return { vectors: found, namespace: target, usage: { readUnits: 1 } };
  }

  function stats(body: z.infer<typeof statsSchema>): unknown {
    const filter = body.filter === undefined ? undefined : pineconeFilter(body.filter);
    const summary: Record<string, { vectorCount: number }> = {};
    let total = 0;
    for (const [name, vectors] of namespaces) {
      let count = 0;
      for (const vector of vectors.values()) if (filter === undefined || matchesFilter(vector.metadata ?? {}, filter)) count += 1;
      if (count === 0) continue;
      summary[name] = { vectorCount: count };
      total += count;
    }
    return { namespaces: summary, dimension: dimension ?? 0, indexFullness: 0, totalVectorCount: total, metric, vectorType: "dense" };
  }

  async function searchRecords(target: string, body: z.infer<typeof searchRecordsSchema>): Promise<unknown> {
    const integrated = requireIntegrated();
    const [dense] = await integrated.embed([body.query.inputs.text], "query");
    checkDimension(dense, "query");
    const filter = body.query.filter === undefined ? undefined : pineconeFilter(body.query.filter);
    const hits = rank(namespace(target), dense, undefined, filter, body.query.top_k).map(({ vector, score: value }) => {
      const fields = vector.metadata ?? {};
      const chosen =
        body.fields === undefined
          ? fields
          : Object.fromEntries(body.fields.filter((name) => name in fields).map((name) => [name, fields[name]]));
      return { _id: vector.id, _score: value, fields: chosen };
    });
    return { result: { hits }, usage: { read_units: 1, embed_total_tokens: body.query.inputs.text.length } };
  }

  async function upsertRecords(target: string, body: string): Promise<void> {
    const integrated = requireIntegrated();
    const lines = body.split("\n").filter((line) => line.trim() !== "");
    if (lines.length > maxUpsertRecords) throw new HttpFailure(400, `Cannot upsert more than ${maxUpsertRecords} records in one request`);
    const records = lines.map((line, position) => {
      const value = json(line);
      if (value === null || typeof value !== "object" || Array.isArray(value))
        throw new HttpFailure(400, `line ${position + 1} is not a record`);
      const { _id, id, ...fields } = value as Record<string, unknown>;
      const recordId = _id ?? id;
      if (typeof recordId !== "string" || recordId === "") throw new HttpFailure(400, `line ${position + 1} has no _id`);
      const text = fields[integrated.textField];
      if (typeof text !== "string") throw new HttpFailure(400, `record ${recordId} has no text in field ${integrated.textField}`);
      return { id: recordId, text, metadata: parse(metadataSchema, fields) };
    });
    const embedded = await integrated.embed(
      records.map((record) => record.text),
      "passage",
    );
    const vectors = namespace(target);
    records.forEach((record, position) => {
      const values = embedded[position] ?? [];
      checkDimension(values, `record ${record.id}`);
      vectors.set(record.id, { id: record.id, values, metadata: record.metadata });
    });
  }

  function requireIntegrated(): NonNullable<PineconeTestServerOptions["integrated"]> {
    if (options.integrated === undefined) throw new HttpFailure(400, "This index is not configured for integrated inference");
    return options.integrated;
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent || response.destroyed) return;
      if (error instanceof HttpFailure) {
        sendJson(response, error.status, { code: error.status === 400 ? 3 : error.status, message: error.message, details: [] });
      } else {
        sendJson(response, 500, { code: 13, message: error instanceof Error ? error.message : String(error), details: [] });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    inject(fault) {
      faults.push({ ...fault, times: fault.times ?? 1 });
    },
    clearFaults() {
      faults.length = 0;
    },
    recordCount(name = "") {
      return namespaces.get(name)?.size ?? 0;
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function requestNamespace(address: URL, body: string, recordsPath: RegExpExecArray | null): { namespace?: string } {
  if (recordsPath !== null) return { namespace: decodeURIComponent(recordsPath[1] ?? "") };
  const fromQuery = address.searchParams.get("namespace");
  if (fromQuery !== null) return { namespace: fromQuery };
  try {
    const parsed: unknown = body === "" ? undefined : JSON.parse(body);
    const value = parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>)["namespace"] : undefined;
    return typeof value === "string" ? { namespace: value } : {};
  } catch {
    return {};
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpFailure(400, "the request body is not valid JSON");
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
  throw new HttpFailure(400, `Invalid request${where}: ${issue?.message ?? "malformed"}`);
}

function send(response: ServerResponse, status: number, body: string): void {
  if (response.destroyed || response.headersSent) return;
  response.writeHead(status, { "content-type": "application/json" });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, JSON.stringify(value));
}

function norm(values: number[]): number {
  let sum = 0;
  for (const value of values) sum += value * value;
  return Math.sqrt(sum);
}

const fieldOperators = new Set(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists"]);

/**
 * Checks a filter as Pinecone does and rewrites it to Pinecone's semantics in terms of the
 * reference: `$ne` / `$nin` also need the field to exist. Refuses (400) what Pinecone refuses.
 */
function pineconeFilter(filter: Record<string, unknown>): MetadataFilter {
  if (Object.keys(filter).length === 0) throw new HttpFailure(400, "a filter may not be empty");
  const rewritten: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === "$and" || key === "$or") {
      if (!Array.isArray(value) || value.length === 0) throw new HttpFailure(400, `${key} needs a non-empty array`);
      rewritten[key] = value.map((part) => {
        if (part === null || typeof part !== "object" || Array.isArray(part)) throw new HttpFailure(400, `${key} holds a non-object`);
        return pineconeFilter(part as Record<string, unknown>);
      });
      continue;
    }
    if (key.startsWith("$")) throw new HttpFailure(400, `unsupported operator ${key}`);
    rewritten[key] = pineconeCondition(key, value);
  }
  return rewritten as MetadataFilter;
}

function pineconeCondition(field: string, condition: unknown): unknown {
  if (typeof condition === "string" || typeof condition === "number" || typeof condition === "boolean") return condition;
  if (condition === null || typeof condition !== "object" || Array.isArray(condition)) {
    throw new HttpFailure(400, `invalid condition for ${field}`);
  }
  const result: Record<string, unknown> = {};
  for (const [operator, operand] of Object.entries(condition)) {
    if (!fieldOperators.has(operator)) throw new HttpFailure(400, `unsupported operator ${operator} on ${field}`);
    if (operator === "$in" || operator === "$nin") {
      if (!Array.isArray(operand) || operand.some((item) => typeof item !== "string" && typeof item !== "number")) {
        throw new HttpFailure(400, `${operator} on ${field} takes a list of strings or numbers`);
      }
    }
    result[operator] = operand;
  }
  if ("$ne" in result || "$nin" in result) {
    if (result["$exists"] === false) return { $in: [] };
    result["$exists"] = true;
  }
  return result;
}
