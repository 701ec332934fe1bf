import type { FallbackReason, RetrievalLayer } from "@lookup-knowledge/core";
import type { AttemptSummary } from "./attempt-summary.js";
import type { EvidenceSummary } from "./evidence-summary.js";

/** The `retrieval_details` of a tool invocation: how a lookup reached its result (R27), compactly (R28). */
export interface RetrievalDetails {
  /** The L0 hints: matched keywords, domains, entities, titles and entries. */
  hints: {
    keywords: string[];
    domains: string[];
    /** Domains only generic query words matched; they kept a single domain from becoming a filter (R7). */
    otherDomains?: string[];
    entities: string[];
    titles: string[];
    entries: Array<{ id: string; source: string; title?: string; domain?: string }>;
  };
  retrievalLayer: RetrievalLayer;
  l1Enabled: boolean;
  /** Every L1 attempt, in order. */
  attempts: AttemptSummary[];
  fallbackReason: FallbackReason | null;
  /**
   * The `rag.reference-threshold` the lookup ran with (0..1): an attempt whose `topScore` is
   * below it was refused as `below_reference_threshold`. Absent in records written before it was kept.
   */
  referenceThreshold?: number;
  /** Candidates of the attempt the result came from. */
  candidateCount: number;
  /** Final evidence blocks. */
  evidenceCount: number;
  relevanceLevel: string;
  evidence: EvidenceSummary[];
  /** The rerank trace of the top blocks (R19); empty without evidence. */
  rerank: Array<{
    rank: number;
    evidenceKey: string;
    source: string;
    baseScore?: number;
    finalScore: number;
    boosts: Array<{ signal: string; amount: number }>;
  }>;
  /** What the context pack included, omitted and truncated; absent without evidence. */
  contextPack?: { includedSources: string[]; omittedSources: string[]; truncated: string[] };
  /** The whole length of the received query (UTF-16 code units), set when `query` holds only its start. */
  receivedQueryLength?: number;
  /**
   * Set when the record held text Postgres cannot store (NUL, a lone UTF-16 surrogate):
   * the paths of the fields whose text was changed (each such character became U+FFFD).
   */
  sanitizedFields?: string[];
  /**
   * Set on a record read back from the database when part of its row could not be read as
   * this version writes it (a row of another writer, a hand edit): per repair, the field, what
   * was stored and how it was read (`retrievalDetails.attempts is missing; read as []`). An
   * attempt that is not one says so in its own `error` instead. Never written by this version.
   */
  readNotes?: string[];
}
