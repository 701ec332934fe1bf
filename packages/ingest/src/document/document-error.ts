import { LookupKnowledgeError } from "@lookup-knowledge/core";

const marker = "lookup-knowledge.error.invalid-document";
const symbol = Symbol.for(marker);

/**
 * A file cannot be ingested: broken frontmatter (not YAML, not a mapping, a field of the
 * wrong type) or bytes that are not UTF-8. `source` is the file's path relative to the
 * ingest root and `reason` says what is wrong. Retrying does not help; fix the file.
 */
export class DocumentError extends LookupKnowledgeError<"invalid_document"> {
  private readonly [symbol] = true;
  readonly source: string;
  readonly reason: string;

  constructor(options: { source: string; reason: string; cause?: unknown }) {
    super({ code: "invalid_document", message: `Invalid document ${options.source}: ${options.reason}`, cause: options.cause });
    this.name = "DocumentError";
    this.source = options.source;
    this.reason = options.reason;
  }

  static override isInstance(error: unknown): error is DocumentError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}
