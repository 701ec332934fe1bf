import type { MetadataFilter, SearchHit } from "@lookup-knowledge/core";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { z } from "zod";
import { raceWithAbort, throwIfAborted } from "../internal/abort.js";
import { readSearchRequest } from "../internal/read-search-request.js";
import { toPineconeFilter } from "../internal/to-pinecone-filter.js";
import { matchesFilter } from "../matches-filter.js";
import type { SearchRequest } from "../search-request.js";
import { callPinecone } from "./call-pinecone.js";
import { lexicalSparseValues } from "./lexical-sparse-values.js";
import type { SparseValues } from "./lexical-sparse-values.js";
import { namespaceOption, parsePineconeResponse } from "./parse-pinecone-response.js";
import { PineconePortError } from "./pinecone-port-error.js";
import type { PineconeSettings } from "./read-pinecone-settings.js";
import { checkVector, unitVector } from "./unit-vector.js";

const matchSchema = z.object({
  id: z.string(),
  score: z.number(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
const queryResponseSchema = z.object({ matches: z.array(matchSchema) });
const searchRecordsResponseSchema = z.object({
  result: z.object({
    hits: z.array(z.object({ _id: z.string(), _score: z.number(), fields: z.record(z.string(), z.unknown()).nullish() })),
  }),
});

/**
 * The `search` of the Pinecone port: `query` (dense, or hybrid with sparse values) or
 * `searchRecords` (integrated), the filter passed natively and checked on every hit, scores
 * normalised per metric, best first, ties by id.
 */
export function createPineconeSearch(settings: PineconeSettings): (request: SearchRequest) => Promise<SearchHit[]> {
  const { index, namespace, mode, metric, policy } = settings;

  async function search(request: SearchRequest): Promise<SearchHit[]> {
    const signal = request.signal;
    throwIfAborted(signal);
    const { filter, topK, query } = readSearchRequest(request);
    if (topK === 0) return [];
    const translated = filter === undefined ? true : toPineconeFilter(filter);
    if (translated === false) return [];
    const nativeFilter = translated === true ? undefined : translated;

    let hits: SearchHit[];
    if (mode === "integrated") {
      const response = await callPinecone(
        "searchRecords",
        () =>
          index.searchRecords({
            ...namespaceOption(namespace),
            query: { topK, inputs: { text: query }, ...(nativeFilter === undefined ? {} : { filter: nativeFilter }) },
          }),
        policy,
        signal,
      );
      const parsed = parsePineconeResponse(searchRecordsResponseSchema, response, "searchRecords");
      hits = parsed.result.hits.map((hit) => toHit(hit._id, hit._score, hit.fields ?? {}));
    } else {
      const embedded = await raceWithAbort(embedQuery(query), signal);
      if (embedded === undefined) return [];
      let vector = embedded;
      let sparseVector: SparseValues | undefined;
      if (mode === "hybrid") {
        const denseShare = 1 - settings.lexicalWeight;
        vector = embedded.map((value) => value * denseShare);
        const sparse = lexicalSparseValues(query);
        if (sparse.indices.length > 0 && settings.lexicalWeight > 0) {
          sparseVector = { indices: sparse.indices, values: sparse.values.map((value) => value * settings.lexicalWeight) };
        }
      }
      const response = await callPinecone(
        "query",
        () =>
          index.query({
            ...namespaceOption(namespace),
            topK,
            vector,
            ...(sparseVector === undefined ? {} : { sparseVector }),
            ...(nativeFilter === undefined ? {} : { filter: nativeFilter }),
            includeMetadata: true,
            includeValues: false,
          }),
        policy,
        signal,
      );
      const parsed = parsePineconeResponse(queryResponseSchema, response, "query");
      hits = parsed.matches.map((match) => toHit(match.id, match.score, match.metadata ?? {}));
    }

    for (const hit of hits) assertHonoured(hit, filter, mode === "integrated" ? "searchRecords" : "query");
    hits.sort((left, right) => (right.score ?? 0) - (left.score ?? 0) || compareIds(left.id ?? "", right.id ?? ""));
    return hits.slice(0, topK);
  }

  function toHit(id: string, raw: number, fields: Record<string, unknown>): SearchHit {
    const { [settings.textField]: text, ...metadata } = fields;
    const score = settings.normalizeScore(raw, metric);
    return {
      id,
      content: typeof text === "string" ? text : "",
      metadata,
      score: Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 0,
    };
  }

  async function embedQuery(query: string): Promise<number[] | undefined> {
    const embeddings = settings.embeddings as EmbeddingsInterface;
    const vector = await embeddings.embedQuery(query);
    checkVector(vector, "embedQuery");
    return unitVector(vector);
  }

  return search;
}

function assertHonoured(hit: SearchHit, filter: MetadataFilter | undefined, operation: string): void {
  if (filter === undefined || matchesFilter(hit.metadata, filter)) return;
  throw new PineconePortError({
    code: "filter_not_honoured",
    operation,
    message: `Pinecone ${operation} returned ${JSON.stringify(hit.id)}, which the filter ${JSON.stringify(filter)} excludes; refusing to pass it on`,
  });
}

function compareIds(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
