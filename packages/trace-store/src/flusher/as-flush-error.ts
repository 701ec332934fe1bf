import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { TraceStoreError } from "../errors/trace-store-error.js";

/** A failed flush as the error reported: a library error as it is, anything else as `trace_database_unavailable`. */
export function asFlushError(error: unknown, location: string): LookupKnowledgeError {
  if (LookupKnowledgeError.isInstance(error)) return error;
  return new TraceStoreError({
    code: "trace_database_unavailable",
    message: `Could not flush trace records into ${location}: ${(error as Error)?.message ?? String(error)}. They stay in the spool.`,
    location,
    cause: error,
  });
}
