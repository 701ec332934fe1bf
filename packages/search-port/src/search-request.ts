import type { MetadataFilter } from "@lookup-knowledge/core";

/** One semantic fetch asked of a {@link KnowledgeSearchPort} (R13). */
export interface SearchRequest {
  /** The text to search for, as the pipeline prepared it. */
  query: string;
  /** How many hits the port should return at most (`rag.retrieve-k`). */
  topK: number;
  /** A Pinecone-style metadata filter; the caller's conditions and any L0-derived one, combined. */
  filter?: MetadataFilter | undefined;
  /**
   * The part of `filter` the caller imposes (tenant, access scope) when `filter` also carries
   * a steering filter such as an L0 hint. A port that judges answerability (the local port)
   * compares the filtered list only with the best match inside this scope, so a steering
   * filter that leaves the scope's best evidence out scores low (R9) while records outside
   * the scope never lower the score nor show in the trace (R12). Without `scopeFilter` the
   * whole `filter` is the scope: no penalty. `{}` means every record. Checked like `filter`
   * (an `InvalidFilterError` whose path starts with `scopeFilter`); ports that do not judge
   * answerability ignore it and never pass it on.
   */
  scopeFilter?: MetadataFilter | undefined;
  /** Aborts the fetch; a port rejects promptly with `signal.reason`. */
  signal?: AbortSignal | undefined;
}
