import type { MetadataFilter, SearchHit } from "@lookup-knowledge/core";
import { throwIfAborted } from "../internal/abort.js";
import { compareHits } from "../internal/compare-hits.js";
import { readSearchRequest } from "../internal/read-search-request.js";
import { toPineconeFilter } from "../internal/to-pinecone-filter.js";
import { matchesFilter } from "../matches-filter.js";
import type { SearchRequest } from "../search-request.js";
import { PineconePortError } from "./pinecone-port-error.js";
import { queryPineconeVectors } from "./query-pinecone-vectors.js";
import type { PineconeSettings } from "./read-pinecone-settings.js";
import { searchPineconeRecords } from "./search-pinecone-records.js";

/**
 * The `search` of the Pinecone port: `query` (dense, or hybrid with sparse values;
 * `query-pinecone-vectors.ts`) or `searchRecords` (integrated; `search-pinecone-records.ts`),
 * the filter passed natively and checked on every hit, scores normalised per metric, best
 * first, ties by id.
 */
export function createPineconeSearch(settings: PineconeSettings): (request: SearchRequest) => Promise<SearchHit[]> {
  return async function search(request: SearchRequest): Promise<SearchHit[]> {
    const signal = request.signal;
    throwIfAborted(signal);
    const { filter, topK, query } = readSearchRequest(request);
    if (topK === 0) return [];
    const translated = filter === undefined ? true : toPineconeFilter(filter);
    if (translated === false) return [];
    const nativeFilter = translated === true ? undefined : translated;
    const integrated = settings.mode === "integrated";
    const hits = integrated
      ? await searchPineconeRecords(settings, query, topK, nativeFilter, signal)
      : await queryPineconeVectors(settings, query, topK, nativeFilter, signal);
    for (const hit of hits) assertHonoured(hit, filter, integrated ? "searchRecords" : "query");
    hits.sort(compareHits);
    return hits.slice(0, topK);
  };
}

function assertHonoured(hit: SearchHit, filter: MetadataFilter | undefined, operation: string): void {
  if (filter === undefined || matchesFilter(hit.metadata, filter)) return;
  throw new PineconePortError({
    code: "filter_not_honoured",
    operation,
    message: `Pinecone ${operation} returned ${JSON.stringify(hit.id)}, which the filter ${JSON.stringify(filter)} excludes; refusing to pass it on`,
  });
}
