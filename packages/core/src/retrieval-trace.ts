import type { Answerability } from "./answerability.js";
import type { L0Hints } from "./l0-hints.js";
import type { MetadataFilter } from "./metadata-filter.js";
import type { RetrievalLayer } from "./evidence-block.js";
import type { RejectedHit } from "./candidate.js";

/** Why the unfiltered retry ran (R8, R9); `filtered_vector_error` when the filtered attempt threw. */
export type FallbackReason = "filtered_vector_no_evidence" | "filtered_vector_low_quality" | "filtered_vector_error";

/** How one L1 attempt ended. */
export type AttemptOutcome = "usable" | "no_candidates" | "no_evidence" | "low_quality" | "error";

/** One L1 request and what came of it (R11). */
export interface RetrievalAttempt {
  /** 1 for the first request, 2 for the retry. */
  attempt: number;
  query: string;
  topK: number;
  /** The whole filter sent to the port (caller filter and L0 filter combined). */
  filter?: MetadataFilter;
  /** The L0-derived part of the filter, when one was sent. */
  l0Filter?: MetadataFilter;
  candidateCount: number;
  evidenceCount: number;
  topScore?: number;
  /**
   * The page behind `topScore`: the hit the port judged, else the best-scored evidence. Kept so
   * a refused lookup still says which page came closest (issue 37 item 1); absent when no hit
   * stood behind the score, and in records written before it existed.
   */
  topSource?: { source: string; title?: string };
  /** The port's answerability judgement of its best hit, with the signals behind it, when it gave one. */
  answerability?: Answerability;
  /**
   * For a refused L0-filtered attempt whose filter left the caller's scope's best match out:
   * the share of that match's score it kept (`filterShare`, below the retriever's minimum),
   * set whether or not its judgement also fell below the threshold. Readers show this instead
   * of re-deriving the rule.
   */
  leftOutShare?: number;
  outcome: AttemptOutcome;
  rejectedHits: RejectedHit[];
  error?: { code: string; message: string };
  durationMs: number;
}

/** The query as received and as each stage saw it (R3). */
export interface QueryTrace {
  received: string;
  /** Normalised (trimmed, NFKC, control characters removed, whitespace collapsed, bounded). */
  normalized: string;
  /** What the first L1 request used: the normalised query, possibly with L0 entity terms. */
  transformed: string;
  truncated: boolean;
  addedTerms: string[];
}

/** Everything that explains how a lookup reached its result. */
export interface RetrievalTrace {
  query: QueryTrace;
  hints: L0Hints;
  l1Enabled: boolean;
  retrievalLayer: RetrievalLayer;
  attempts: RetrievalAttempt[];
  fallbackReason?: FallbackReason;
  /** Candidates of the attempt the result came from (the last one). */
  candidateCount: number;
  evidenceCount: number;
  referenceThreshold: number;
}
