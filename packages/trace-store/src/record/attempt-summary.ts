import type { RetrievalAttempt } from "@lookup-knowledge/core";

/**
 * One L1 attempt in a trace record (R11, R27): core's `RetrievalAttempt` without its query
 * (the record keeps the query once, hashed when queries are) and `topK`, with the refused hits
 * counted and the port's error as one line. `outcome` is core's `AttemptOutcome`; a record
 * read back from the database is checked against it (`readStoredAttempts`).
 */
export interface AttemptSummary extends Omit<RetrievalAttempt, "query" | "topK" | "rejectedHits" | "error"> {
  /** How many hits the pipeline refused as malformed. */
  rejectedHits: number;
  /** `code: message` of the port's failure, when it threw. */
  error?: string;
}
