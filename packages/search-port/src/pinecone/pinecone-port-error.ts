import { LookupKnowledgeError } from "@lookup-knowledge/core";

const marker = "lookup-knowledge.error.pinecone-port";
const symbol = Symbol.for(marker);

/** What went wrong in a call to Pinecone. */
export type PineconePortErrorCode =
  /** Pinecone refused the request (a 4xx other than 429): retrying the same request cannot help. */
  | "pinecone_rejected"
  /** Pinecone answered 429 or 5xx, or could not be reached, on every attempt. */
  | "pinecone_unavailable"
  /** Pinecone answered with a body that is not what its API promises. */
  | "pinecone_malformed_response"
  /** A record cannot be stored in Pinecone as it is (metadata type, size, missing text). */
  | "pinecone_invalid_record"
  /** The index returned a record that the request's filter excludes: the filter was not applied as meant. */
  | "filter_not_honoured";

/**
 * An error of the Pinecone adapter. `operation` names the call (`query`, `upsert`,
 * `listPaginated`, ...), `status` the HTTP status when there was one, `attempts` how many
 * times the call was tried. `retryable` is true for `pinecone_unavailable`.
 */
export class PineconePortError extends LookupKnowledgeError {
  private readonly [symbol] = true;
  override readonly code: PineconePortErrorCode;
  readonly operation: string;
  readonly status: number | undefined;
  readonly attempts: number;

  constructor(options: {
    code: PineconePortErrorCode;
    operation: string;
    message: string;
    status?: number;
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
