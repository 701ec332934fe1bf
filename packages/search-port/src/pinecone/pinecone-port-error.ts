import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { SearchPortErrorCode } from "../search-port-error-code.js";

const marker = "lookup-knowledge.error.pinecone-port";
const symbol = Symbol.for(marker);

/** What went wrong in a call to Pinecone (the codes are described in `SearchPortErrorCode`). */
export type PineconePortErrorCode = Extract<
  SearchPortErrorCode,
  "pinecone_rejected" | "pinecone_unavailable" | "pinecone_malformed_response" | "pinecone_invalid_record" | "filter_not_honoured"
>;

/**
 * An error of the Pinecone adapter. `operation` names the call (`query`, `upsert`,
 * `listPaginated`, ...), `status` the HTTP status when there was one, `attempts` how many
 * times the call was tried. `retryable` is true for `pinecone_unavailable`.
 */
export class PineconePortError extends LookupKnowledgeError<PineconePortErrorCode> {
  private readonly [symbol] = true;
  override readonly code: PineconePortErrorCode;
  readonly operation: string;
  readonly status: number | undefined;
  readonly attempts: number;

  constructor(options: {
    code: PineconePortErrorCode;
    operation: string;
    message: string;
    status?: number | undefined;
    attempts?: number;
    cause?: unknown;
  }) {
    super({
      code: options.code,
      message: options.message,
      cause: options.cause,
      retryable: options.code === "pinecone_unavailable",
    });
    this.name = "PineconePortError";
    this.code = options.code;
    this.operation = options.operation;
    this.status = options.status;
    this.attempts = options.attempts ?? 1;
  }

  static override isInstance(error: unknown): error is PineconePortError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}
