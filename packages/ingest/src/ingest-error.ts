import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { IngestErrorCode } from "./ingest-error-code.js";

const marker = "lookup-knowledge.error.ingest";
const symbol = Symbol.for(marker);

/**
 * Ingestion cannot start or finish: the root folder is missing or not a folder
 * (`code` "invalid_ingest_root"), the manifest in the data directory is corrupt
 * (`code` "invalid_ingest_manifest"), or the data directory holds the knowledge base of
 * another root folder (`code` "different_ingest_root"). `path` names the file or folder.
 */
export class IngestError extends LookupKnowledgeError<Exclude<IngestErrorCode, "invalid_document">> {
  private readonly [symbol] = true;
  readonly path: string;
  readonly reason: string;

  constructor(options: {
    code: "invalid_ingest_root" | "invalid_ingest_manifest" | "different_ingest_root";
    path: string;
    reason: string;
    cause?: unknown;
  }) {
    super({ code: options.code, message: `${options.reason}: ${options.path}`, cause: options.cause });
    this.name = "IngestError";
    this.path = options.path;
    this.reason = options.reason;
  }

  static override isInstance(error: unknown): error is IngestError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}
