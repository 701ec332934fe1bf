import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import type { KnowledgeSearchPort } from "../knowledge-search-port.js";
import type { KnowledgeWriter } from "../knowledge-writer.js";
import type { VectorStoreProfile } from "./vector-store-profile.js";

export interface VectorStoreSearchPortOptions {
  /** Any LangChain `VectorStore`, configured with its embeddings. */
  vectorStore: VectorStoreInterface;
  /** How to talk to this kind of store. Default: the built-in profile for `vectorStore._vectorstoreType()`. */
  profile?: VectorStoreProfile;
  /**
   * The metadata key that carries a record's id (default `"recordId"`), for stores that
   * assign ids of their own (LibSQL uses row ids). It is removed from returned metadata.
   */
  idKey?: string;
  /** Records per `addDocuments` call (default 100). */
  batchSize?: number;
}

/** A `KnowledgeSearchPort` and `KnowledgeWriter` over a LangChain `VectorStore`. */
export interface VectorStoreSearchPort extends KnowledgeSearchPort, KnowledgeWriter {
  /** The profile in use. */
  readonly profile: VectorStoreProfile;
}
