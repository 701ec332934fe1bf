import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { SearchPortErrorCode } from "./search-port-error-code.js";

const marker = "lookup-knowledge.error.invalid-write";
const symbol = Symbol.for(marker);

/**
 * A write was refused because of what it was given: `invalid_record` for a record that is not
 * one (no object, no id, content not a string, no metadata object), `invalid_argument` for
 * an argument that is not what the call takes (`upsert` without an array of records,
 * `deleteDocuments` without an array of document ids). Retrying the same call cannot help.
 */
export class InvalidWriteError extends LookupKnowledgeError<Extract<SearchPortErrorCode, "invalid_record" | "invalid_argument">> {
  private readonly [symbol] = true;
  /** The call that refused it: `upsert` or `deleteDocuments`. */
  readonly operation: string;

  constructor(options: { code: Extract<SearchPortErrorCode, "invalid_record" | "invalid_argument">; operation: string; message: string }) {
    super({ code: options.code, message: options.message });
    this.name = "InvalidWriteError";
    this.operation = options.operation;
  }

  static override isInstance(error: unknown): error is InvalidWriteError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}
