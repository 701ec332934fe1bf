import { matchesFilter } from "../../matches-filter.js";
import { HttpFailure } from "./http-failure.js";
import type { PineconeTestIndex, StoredVector } from "./pinecone-test-index.js";
import type { DeleteBody, QueryBody, StatsBody, UpsertBody } from "./request-schemas.js";
import { serverFilter } from "./server-filter.js";

const maxUpsertVectors = 1000;
const maxDeleteIds = 1000;
const maxListLimit = 100;

/** `POST /query`: the nearest vectors to a vector (or to a stored vector's, by id), with sparse values on dotproduct. */
export function queryVectors(index: PineconeTestIndex, body: QueryBody): unknown {
  const vectors = index.namespace(body.namespace);
  let dense = body.vector;
  if (body.id !== undefined) dense = vectors.get(body.id)?.values;
  if (dense === undefined) throw new HttpFailure(400, "a query needs a vector or an id");
  index.checkDimension(dense, "query");
  if (body.sparseVector !== undefined && index.metric !== "dotproduct") {
    throw new HttpFailure(400, "Sparse vectors are only supported for indexes with the dotproduct metric");
  }
  const filter = body.filter === undefined ? undefined : serverFilter(body.filter);
  const matches = index.rank(vectors, dense, body.sparseVector, filter, body.topK).map(({ vector, score }) => ({
    id: vector.id,
    score,
    values: body.includeValues === true ? vector.values : [],
    ...(body.includeMetadata === true && vector.metadata !== undefined ? { metadata: vector.metadata } : {}),
  }));
  return { results: [], matches, namespace: body.namespace ?? "", usage: { readUnits: 1 } };
}

/** `POST /vectors/upsert`: every vector checked as Pinecone checks it before any is stored. */
export function upsertVectors(index: PineconeTestIndex, body: UpsertBody): unknown {
  if (body.vectors.length > maxUpsertVectors) {
    throw new HttpFailure(400, `Cannot upsert more than ${maxUpsertVectors} vectors in one request`);
  }
  for (const vector of body.vectors) {
    if (vector.values === undefined || vector.values.length === 0) {
      throw new HttpFailure(400, `Vector ${vector.id} has no dense values`);
    }
    index.checkDimension(vector.values, `vector ${vector.id}`);
    if (index.metric === "cosine" && vector.values.every((value) => value === 0)) {
      throw new HttpFailure(400, `Dense vectors must contain at least one non-zero value (vector ${vector.id})`);
    }
    if (vector.sparseValues !== undefined && index.metric !== "dotproduct") {
      throw new HttpFailure(400, "Sparse values are only supported for indexes with the dotproduct metric");
    }
  }
  const vectors = index.namespace(body.namespace);
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

/** `POST /vectors/delete`: by ids or all; deleting by filter is refused, as on serverless indexes. */
export function deleteVectors(index: PineconeTestIndex, body: DeleteBody): unknown {
  const vectors = index.namespace(body.namespace);
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

/** `GET /vectors/list`: the ids with a prefix, sorted, a page at a time with a pagination token. */
export function listVectors(index: PineconeTestIndex, parameters: URLSearchParams): unknown {
  const target = parameters.get("namespace") ?? "";
  const prefix = parameters.get("prefix") ?? "";
  const limit = Number(parameters.get("limit") ?? maxListLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > maxListLimit) {
    throw new HttpFailure(400, `limit must be between 1 and ${maxListLimit}`);
  }
  const token = parameters.get("paginationToken");
  const start = token === null ? 0 : Number(Buffer.from(token, "base64url").toString("utf8"));
  if (!Number.isInteger(start) || start < 0) throw new HttpFailure(400, "invalid pagination token");
  const ids = [...index.namespace(target).keys()].filter((id) => id.startsWith(prefix)).sort();
  const page = ids.slice(start, start + limit);
  const next = start + limit < ids.length ? Buffer.from(String(start + limit), "utf8").toString("base64url") : undefined;
  return {
    vectors: page.map((id) => ({ id })),
    ...(next === undefined ? {} : { pagination: { next } }),
    namespace: target,
    usage: { readUnits: 1 },
  };
}

/** `GET /vectors/fetch`: the stored vectors of the ids asked, unknown ids left out. */
export function fetchVectors(index: PineconeTestIndex, parameters: URLSearchParams): unknown {
  const target = parameters.get("namespace") ?? "";
  const vectors = index.namespace(target);
  const found: Record<string, StoredVector> = {};
  for (const id of parameters.getAll("ids")) {
    const vector = vectors.get(id);
    if (vector !== undefined) found[id] = vector;
  }
  return { vectors: found, namespace: target, usage: { readUnits: 1 } };
}

/** `POST /describe_index_stats`: the vector count of each namespace that holds any (passing the filter, when given). */
export function describeIndexStats(index: PineconeTestIndex, body: StatsBody): unknown {
  const filter = body.filter === undefined ? undefined : serverFilter(body.filter);
  const summary: Record<string, { vectorCount: number }> = {};
  let total = 0;
  for (const [name, vectors] of index.namespaces) {
    let count = 0;
    for (const vector of vectors.values()) if (filter === undefined || matchesFilter(vector.metadata ?? {}, filter)) count += 1;
    if (count === 0) continue;
    summary[name] = { vectorCount: count };
    total += count;
  }
  return {
    namespaces: summary,
    dimension: index.dimension ?? 0,
    indexFullness: 0,
    totalVectorCount: total,
    metric: index.metric,
    vectorType: "dense",
  };
}
