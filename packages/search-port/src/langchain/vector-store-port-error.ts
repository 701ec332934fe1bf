import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { SearchPortErrorCode } from "../search-port-error-code.js";

const marker = "lookup-knowledge.error.vector-store-port";
const symbol = Symbol.for(marker);

/** What went wrong in the LangChain vector store adapter (the codes are described in `SearchPortErrorCode`). */
export type VectorStorePortErrorCode = Extract<
  SearchPortErrorCode,
  "unsupported_filter" | "filter_not_honoured" | "vector_store_failed" | "invalid_record"
>;

/** An error of the LangChain adapter; `store` is the store's `_vectorstoreType()`, `operation` the call. */
export class VectorStorePortError extends LookupKnowledgeError<VectorStorePortErrorCode> {
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
