import type { KnowledgeSearchPort } from "../knowledge-search-port.js";
import type { KnowledgeWriter } from "../knowledge-writer.js";
import type { VectorStoreProfile } from "./vector-store-profile.js";

/** A `KnowledgeSearchPort` and `KnowledgeWriter` over a LangChain `VectorStore`. */
export interface VectorStoreSearchPort extends KnowledgeSearchPort, KnowledgeWriter {
  /** The profile in use. */
  readonly profile: VectorStoreProfile;
}
