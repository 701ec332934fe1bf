/** A spool line a flush skipped because it is not a record. */
export interface SkippedSpoolLine {
  /** The segment's name. */
  segment: string;
  /** The line's byte offset in the segment. */
  offset: number;
  reason: string;
  /** The line's first 200 characters (all of it is kept in `spool/rejected.jsonl`). */
  text: string;
}

/** What one flush of a spool did. */
export interface TraceFlushReport {
  /** Records moved from the spool into the database (inserted, or already there). */
  flushed: number;
  /** Of those, rows the database did not have yet. */
  inserted: number;
  skipped: SkippedSpoolLine[];
  /** Records the database refused (a value out of range); kept in `spool/rejected.jsonl`, not retried. */
  quarantined: number;
  /** Segments removed once all their records were in the database. */
  segmentsRemoved: number;
}
