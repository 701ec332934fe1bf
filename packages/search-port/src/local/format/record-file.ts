import type { FileRecords } from "./file-records.js";

/**
 * The committed records a snapshot reads its content and metadata from: one generation's
 * files (`FileRecords`) or, for an index of several segments, the live records of all of
 * them in slot order (`SegmentedRecords`). Slots here are the file slots of `RecordTable`.
 */
export interface RecordFile {
  readonly count: number;
  content(slot: number): string;
  /** A fresh copy of one record's metadata. */
  metadata(slot: number): Record<string, unknown>;
  /** Every record's metadata, parsed once and shared: callers must not change it. */
  allMetadata(): Array<Record<string, unknown>>;
  /** The one generation's files that hold record `slot`, and its slot there (a commit copies its bytes from them). */
  locate(slot: number): { file: FileRecords; slot: number };
  close(): void;
}
