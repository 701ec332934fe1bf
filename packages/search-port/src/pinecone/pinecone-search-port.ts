import type { Index } from "@pinecone-database/pinecone";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { KnowledgeRecordReader } from "../knowledge-record-reader.js";
import type { KnowledgeSearchPort } from "../knowledge-search-port.js";
import type { KnowledgeWriter } from "../knowledge-writer.js";
import type { PineconeMetric } from "./normalize-pinecone-score.js";

/** The methods of the client's `Index` (from `pc.index(...)`) the adapter calls. */
export type PineconeIndex = Pick<
  Index,
  "query" | "fetch" | "upsert" | "deleteMany" | "listPaginated" | "describeIndexStats" | "searchRecords" | "upsertRecords"
>;

/** How the port turns a query into a Pinecone request. */
export type PineconeSearchMode = "dense" | "hybrid" | "integrated";

export interface PineconeSearchPortOptions {
  /** The client's index handle: `new Pinecone({ apiKey }).index({ name })` or `.index({ host })`. The adapter never creates a client. */
  index: PineconeIndex;
  /** The namespace to read and write; default: the one the `Index` was opened with (the default namespace). */
  namespace?: string;
  /** Embeds queries and records (dense and hybrid modes): any LangChain `Embeddings`. */
  embeddings?: EmbeddingsInterface;
  /**
   * Integrated inference: the index embeds text itself (`searchRecords`, `upsertRecords`).
   * `textField` is the field its `field_map` embeds; `true` reads it from `indexDescription`.
   * Excludes `embeddings`.
   */
  integrated?: true | { textField: string };
  /** The index's metric. Default: from `indexDescription`; one of the two is required. */
  metric?: PineconeMetric;
  /**
   * What `pc.describeIndex(name)` returned. Parsed for the metric, the dimension, the vector
   * type and the integrated-inference field map; never trusted blindly.
   */
  indexDescription?: unknown;
  /**
   * Sparse-dense hybrid search (dense mode on a `dotproduct` index only): records and queries
   * also carry lexical sparse values (`lexicalSparseValues`). `lexicalWeight` (0 to below 1,
   * default 0.3) is the lexical share of the score; the dense share is the rest.
   */
  hybrid?: boolean | { lexicalWeight?: number };
  /** The metadata key that holds a chunk's text in dense and hybrid modes (default `"text"`, as LangChain's PineconeStore). */
  textKey?: string;
  /** Replaces the built-in score normalisation (`normalizePineconeScore`); must return 0..1. */
  normalizeScore?: (raw: number, metric: PineconeMetric) => number;
  /** Records per upsert request (default 100; 96 at most in integrated mode, 1000 otherwise). */
  batchSize?: number;
  /** Upsert requests (and documents being deleted) in flight at once (default 4). */
  concurrency?: number;
  /** Retries of a call that met 429, 5xx, a connection failure or a timeout (default 3). */
  maxRetries?: number;
  /** Time limit of one attempt of one call, in ms (default 20000). */
  timeoutMs?: number;
  /** First retry delay in ms, doubled on each retry with full jitter (default 250). */
  retryBaseDelayMs?: number;
  /** Longest retry delay in ms (default 8000). */
  retryMaxDelayMs?: number;
}

/**
 * A `KnowledgeSearchPort` and `KnowledgeWriter` over one namespace of a Pinecone index, that
 * also reads records back by id (`KnowledgeRecordReader`, through the client's `fetch`).
 */
export interface PineconeSearchPort extends KnowledgeSearchPort, KnowledgeWriter, KnowledgeRecordReader {
  readonly mode: PineconeSearchMode;
  readonly metric: PineconeMetric;
  /** The namespace given in the options, if any. */
  readonly namespace: string | undefined;
}
