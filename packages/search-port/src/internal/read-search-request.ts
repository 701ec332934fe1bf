import type { MetadataFilter } from "@lookup-knowledge/core";
import type { SearchRequest } from "../search-request.js";
import { validateMetadataFilter } from "../validate-metadata-filter.js";

/**
 * What every port reads from a request before searching: the filter, validated (an
 * `InvalidFilterError` names what is wrong); `topK` as a whole number of at least 0 (not a
 * number is 0); the query text ("" when it is not a string).
 */
export function readSearchRequest(request: SearchRequest): { filter: MetadataFilter | undefined; topK: number; query: string } {
  const filter = request.filter === undefined ? undefined : validateMetadataFilter(request.filter);
  const topK = typeof request.topK === "number" && !Number.isNaN(request.topK) ? Math.max(0, Math.floor(request.topK)) : 0;
  const query = typeof request.query === "string" ? request.query : "";
  return { filter, topK, query };
}
