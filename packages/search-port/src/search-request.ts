import type { MetadataFilter } from "@lookup-knowledge/core";

/** One semantic fetch asked of a {@link KnowledgeSearchPort} (R13). */
export interface SearchRequest {
  /** The text to search for, as the pipeline prepared it. */
  query: string;
  /** How many hits the port should return at most (`rag.retrieve-k`). */
  topK: number;
  /** A Pinecone-style metadata filter; the caller's conditions and any L0-derived one, combined. */
  filter?: MetadataFilter;
  /** Aborts the fetch; a port rejects promptly with `signal.reason`. */
  signal?: AbortSignal;
}
