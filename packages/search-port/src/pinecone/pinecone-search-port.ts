import type { Index } from "@pinecone-database/pinecone";
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
