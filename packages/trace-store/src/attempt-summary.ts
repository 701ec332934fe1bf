import type { Answerability, MetadataFilter } from "@lookup-knowledge/core";

/** One L1 attempt in a trace record (R11, R27). */
export interface AttemptSummary {
  /** 1 for the first request, 2 for the retry. */
  attempt: number;
  /** The whole filter sent to the port (caller and L0 parts). */
  filter?: MetadataFilter;
  /** The L0-derived part of the filter, when one was sent. */
  l0Filter?: MetadataFilter;
  candidateCount: number;
  evidenceCount: number;
  topScore?: number;
  /** The port's judgement of its best hit and the signals behind it (no query text), when it gave one. */
  answerability?: Answerability;
  /** The share of the scope's best match an L0-filtered attempt kept, when that refused it; absent in older records. */
  leftOutShare?: number;
  /** `usable`, `no_candidates`, `no_evidence`, `low_quality` or `error`. */
  outcome: string;
  /** How many hits the pipeline refused as malformed. */
  rejectedHits: number;
  /** `code: message` of the port's failure, when it threw. */
  error?: string;
  durationMs: number;
}
