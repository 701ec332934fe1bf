import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { SearchPortErrorCode } from "../../search-port-error-code.js";

const marker = "lookup-knowledge.error.index-not-found";
const symbol = Symbol.for(marker);

/**
 * A reader was pointed at a folder that holds no committed index (it does not exist, or no
 * writer has committed to it yet). Build the index first (mode "write", then `commit`).
 */
export class IndexNotFoundError extends LookupKnowledgeError<Extract<SearchPortErrorCode, "index_not_found">> {
  private readonly [symbol] = true;
  readonly directory: string;

  constructor(options: { directory: string }) {
    super({
      code: "index_not_found",
      message:
        `No index at ${options.directory}: the folder has no manifest.json. ` +
        'Build one first: open it with mode "write", upsert, then commit.',
    });
    this.name = "IndexNotFoundError";
    this.directory = options.directory;
  }

  static override isInstance(error: unknown): error is IndexNotFoundError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}
