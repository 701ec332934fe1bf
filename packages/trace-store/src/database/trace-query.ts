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
  /** At most this many, default 50. */
  limit?: number;
}
