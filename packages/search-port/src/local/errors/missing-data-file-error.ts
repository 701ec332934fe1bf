import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { SearchPortErrorCode } from "../../search-port-error-code.js";

/**
 * A data file was missing: the caller may re-read the manifest (a writer may have moved on) and retry.
 * Internal: it never leaves the package (callers turn it into a `CorruptIndexError`); its
 * message is the file's name.
 */
export class MissingDataFileError extends LookupKnowledgeError<Extract<SearchPortErrorCode, "corrupt_index">> {
  constructor(name: string) {
    super({ code: "corrupt_index", message: name });
    this.name = "MissingDataFileError";
  }
}
