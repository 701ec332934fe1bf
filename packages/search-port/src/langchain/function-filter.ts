import type { MetadataFilter } from "@lookup-knowledge/core";
import type { DocumentInterface } from "@langchain/core/documents";
import { matchesFilter } from "../matches-filter.js";

/**
 * A filter for stores that take a function of the document (`MemoryVectorStore`, HNSWLib,
 * Faiss): it keeps the documents whose metadata satisfies `filter` by the reference
 * semantics of `matchesFilter`, so the store answers exactly as the reference does.
 */
export function functionFilter(filter: MetadataFilter): (document: DocumentInterface) => boolean {
  return (document) => matchesFilter(document.metadata ?? {}, filter);
}
