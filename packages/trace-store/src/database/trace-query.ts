/** Which tool invocations to read, newest first. */
export interface TraceQuery {
  /** Calls that started at or after this time. */
  since?: Date;
  /** Calls that started before this time. */
  until?: Date;
  /** `true`: calls that found evidence; `false`: `no_evidence` calls. */
  found?: boolean;
  /** Calls with this fallback reason (e.g. `filtered_vector_low_quality`). */
  fallbackReason?: string;
  /**
   * Calls whose query (as received or as transformed) contains this text, ignoring case.
   * Queries stored as hashes are matched by the exact text instead (see `queryHashes`).
   */
  queryText?: string;
  /** Calls whose stored query or transformed query equals one of these (hashes of the searched text). */
  queryHashes?: string[];
  /**
   * `queryText` matches a stored query only when equal to it, case and all, never as a part:
   * what a store under `hash` searches with, so a record kept as text before `hash` was set
   * (and shown hashed) cannot be told apart by which words it held.
   */
  queryTextWhole?: boolean;
  /** At most this many, default 50. */
  limit?: number;
}
