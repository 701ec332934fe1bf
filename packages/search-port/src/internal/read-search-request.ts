import { InvalidFilterError, type MetadataFilter } from "@lookup-knowledge/core";
import type { SearchRequest } from "../search-request.js";
import { validateMetadataFilter } from "../validate-metadata-filter.js";

/**
 * What every port reads from a request before searching: the filter, validated (an
 * `InvalidFilterError` names what is wrong); `topK` as a whole number of at least 0 (not a
 * number is 0); the query text ("" when it is not a string); the scope filter, validated
 * like the filter (the error's path starts with `scopeFilter`).
 */
export function readSearchRequest(request: SearchRequest): {
  filter: MetadataFilter | undefined;
  scopeFilter: MetadataFilter | undefined;
  topK: number;
  query: string;
} {
  const filter = request.filter === undefined ? undefined : validateMetadataFilter(request.filter);
  const scopeFilter = request.scopeFilter === undefined ? undefined : validateScopeFilter(request.scopeFilter);
  const topK = typeof request.topK === "number" && !Number.isNaN(request.topK) ? Math.max(0, Math.floor(request.topK)) : 0;
  const query = typeof request.query === "string" ? request.query : "";
  return { filter, scopeFilter, topK, query };
}

function validateScopeFilter(scopeFilter: unknown): MetadataFilter {
  try {
    return validateMetadataFilter(scopeFilter);
  } catch (error) {
    if (!InvalidFilterError.isInstance(error)) throw error;
    // The message is "Invalid metadata filter at <path>: <reason>"; keep the reason, prefix the path.
    const prefix = "Invalid metadata filter at ";
    const reason = error.message.startsWith(prefix) ? error.message.slice(prefix.length + error.path.length + 2) : error.message;
    const path =
      error.path === "(root)" ? "scopeFilter" : error.path.startsWith("[") ? `scopeFilter${error.path}` : `scopeFilter.${error.path}`;
    throw new InvalidFilterError({ path, reason });
  }
}
