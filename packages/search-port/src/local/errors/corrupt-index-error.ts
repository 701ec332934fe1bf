import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { SearchPortErrorCode } from "../../search-port-error-code.js";

const marker = "lookup-knowledge.error.corrupt-index";
const symbol = Symbol.for(marker);

/**
 * The index folder cannot be read: its manifest is missing a file, a file's size or
 * checksum differs from the manifest, a file is malformed, or it was written by a newer
 * format version. Rebuild the index (re-run ingest into an empty folder).
 */
export class CorruptIndexError extends LookupKnowledgeError<Extract<SearchPortErrorCode, "corrupt_index">> {
  private readonly [symbol] = true;
  readonly directory: string;

  constructor(options: { directory: string; reason: string; cause?: unknown }) {
    super({
      code: "corrupt_index",
      message: `The index at ${options.directory} is corrupt: ${options.reason}. Rebuild it by ingesting into an empty folder.`,
      cause: options.cause,
    });
    this.name = "CorruptIndexError";
    this.directory = options.directory;
  }

  static override isInstance(error: unknown): error is CorruptIndexError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}
