/**
 * Every `code` an error of `@lookup-knowledge/search-port` carries: the catalogue programs
 * switch on. Option errors are core's `ConfigurationError` (`invalid_configuration`) and are
 * not listed here.
 */
export type SearchPortErrorCode =
  // The local index (`./local`).
  /** Another writer holds the index folder's lock, or this writer lost it. */
  | "index_locked"
  /** A reader found no committed index in the folder. */
  | "index_not_found"
  /** The port was closed (or is closing) and refuses new calls. */
  | "index_closed"
  /** The folder's files do not match its manifest, or were written by a newer format. */
  | "corrupt_index"
  /** The index holds vectors of another embedder, or the embedder returned vectors of the wrong size. */
  | "embedder_mismatch"
  /** The index was written with another analyser version than this library's. */
  | "analyzer_mismatch"
  /** The answerability fit did not converge to finite parameters. */
  | "fit_failed"
  // Any writer.
  /** A record cannot be written as it is (not an object, no id, content not a string, ...). */
  | "invalid_record"
  /** An argument other than an option is not what the call takes (not an array, too few examples, ...). */
  | "invalid_argument"
  // Pinecone (`./pinecone`).
  /** Pinecone refused the request (a 4xx other than 429): retrying the same request cannot help. */
  | "pinecone_rejected"
  /** Pinecone answered 429 or 5xx, or could not be reached, on every attempt. */
  | "pinecone_unavailable"
  /** Pinecone answered with a body that is not what its API promises. */
  | "pinecone_malformed_response"
  /** A record cannot be stored in Pinecone as it is (metadata type, size, missing text). */
  | "pinecone_invalid_record"
  // LangChain vector stores (`./langchain`, `./libsql`).
  /** The store's filter language cannot express this filter; it is refused, never dropped. */
  | "unsupported_filter"
  /** The vector store threw; `cause` holds its error. */
  | "vector_store_failed"
  // Pinecone and LangChain vector stores.
  /** The store returned a record the request's filter excludes: the filter was not applied as meant. */
  | "filter_not_honoured";
