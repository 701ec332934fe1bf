import type { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { TraceFlushReport } from "../spool/trace-flush-report.js";

/** What `createSpoolFlusher` needs of the durable store: its folder, its bounds, its spool and its error handler. */
export interface SpoolFlusherOptions {
  /** The trace folder. */
  directory: string;
  /** Shown in the error of a failed flush that is not a `LookupKnowledgeError`. */
  location: string;
  intervalMs: number;
  afterRecords: number;
  afterBytes: number;
  /** `spool.appendedBytes`: the bytes appended to the spool so far. */
  appendedBytes: () => number;
  /** Runs `flushTraceSpool` once. */
  flushSpool: (lockWaitMs: number) => Promise<TraceFlushReport>;
  report: (error: LookupKnowledgeError) => void;
}
