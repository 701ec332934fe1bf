import type { ToolInvocationRecord } from "../../record/tool-invocation-record.js";

/** A tool invocation as read back from the database. */
export interface StoredToolInvocation extends ToolInvocationRecord {
  /** When it reached the database, ISO 8601 (null when unknown). */
  recordedAt: string | null;
}
