export type { FieldCondition, FilterValue, MetadataFilter, SearchHit } from "@lookup-knowledge/core";
export { andFilters } from "./and-filters.js";
export { equalsFilter } from "./equals-filter.js";
export type { KnowledgeSearchPort } from "./knowledge-search-port.js";
export { matchesFilter } from "./matches-filter.js";
export type { SearchRequest } from "./search-request.js";
export { validateMetadataFilter } from "./validate-metadata-filter.js";
