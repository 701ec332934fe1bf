import type { LookupKnowledgeError } from "@lookup-knowledge/core";

/**
 * What the CLI says for a library error: the library's message, except where it speaks to a
 * programmer (open the index "with mode write", "mode read"): then in the words of someone
 * running `lookup-knowledge`, naming the folder.
 */
export function cliErrorMessage(error: LookupKnowledgeError): string {
  const directory = (error as { directory?: unknown }).directory;
  const where = typeof directory === "string" ? ` (${directory})` : "";
  switch (error.code) {
    case "index_not_found":
      return `Nothing has been ingested into this data folder yet: it has no index${where}.`;
    case "index_locked":
      // The library's own reasons (a writer that lost its lock) are kept; its default speaks of modes.
      return error.message.includes('mode "read"')
        ? `The data folder's index${where} is locked: another lookup-knowledge ingest is writing to it right now.`
        : error.message;
    default:
      return error.message;
  }
}
