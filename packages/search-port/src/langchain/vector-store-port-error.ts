import { LookupKnowledgeError } from "@lookup-knowledge/core";

const marker = "lookup-knowledge.error.vector-store-port";
const symbol = Symbol.for(marker);

/** What went wrong in the LangChain vector store adapter. */
export type VectorStorePortErrorCode =
  /** The store's filter language cannot express this filter; it is refused, never dropped. */
  | "unsupported_filter"
  /** The store returned a document the filter excludes: its filter was not applied as meant. */
  | "filter_not_honoured"
  /** The vector store threw; `cause` holds its error. */
  | "vector_store_failed"
  /** A record cannot be written as it is. */
  | "invalid_record";

/** An error of the LangChain adapter; `store` is the store's `_vectorstoreType()`, `operation` the call. */
export class VectorStorePortError extends LookupKnowledgeError {
  private readonly [symbol] = true;
  override readonly code: VectorStorePortErrorCode;
  readonly store: string;
  readonly operation: string;

  constructor(options: { code: VectorStorePortErrorCode; store: string; operation: string; message: string; cause?: unknown }) {
    super({ code: options.code, message: options.message, cause: options.cause });
    this.name = "VectorStorePortError";
    this.code = options.code;
    this.store = options.store;
    this.operation = options.operation;
  }

  static override isInstance(error: unknown): error is VectorStorePortError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}
