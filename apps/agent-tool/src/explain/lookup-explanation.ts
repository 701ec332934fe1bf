import type { LookupResult, MetadataFilter, RerankBoost, RetrievalAttempt } from "@lookup-knowledge/core";

/** Why the expected document or chunk did (or did not) reach the model on one attempt. */
export type ExplainOutcomeKind =
  | "not_in_index"
  | "excluded_by_filter"
  | "beyond_retrieve_k"
  | "deeper_search_failed"
  | "merged_by_dedup"
  | "cut_by_document_cap"
  | "cut_by_return_n"
  | "truncated_by_budget"
  | "omitted_by_budget"
  | "attempt_refused"
  | "attempt_failed"
  | "included";

/**
 * One outcome: its kind, one readable sentence, and the numbers behind it. Which numbers are
 * present depends on the kind (each is documented with the field).
 */
export interface ExplainOutcome {
  kind: ExplainOutcomeKind;
  /** One sentence for people; document text in it is not escaped (print it with `printable`). */
  message: string;
  /** The evidence key (`{docId}#chunk-{n}`) the outcome is about, when it is about one chunk. */
  evidenceKey?: string;
  /** included, truncated, omitted, refused, cut_by_return_n: the rank after rerank (1 first). */
  rank?: number;
  /** included, truncated, omitted, refused, cut_by_return_n: the final (reranked) score. */
  score?: number;
  /** included and truncated: the port's score before the boosts. */
  baseScore?: number;
  /** included and truncated: every boost the reranker gave. */
  boosts?: RerankBoost[];
  /** The rank the port gave (1 first); beyond_retrieve_k: the rank when searched deeper. */
  portRank?: number;
  /** The port's score; beyond_retrieve_k: the score when searched deeper. */
  portScore?: number;
  /** beyond_retrieve_k: `rag.retrieve-k`. */
  retrieveK?: number;
  /** beyond_retrieve_k: how deep the second search went; deeper_search_failed: how deep it was to go. */
  searchedTo?: number;
  /**
   * deeper_search_failed: why the second, deeper search (which would place a chunk the attempt
   * did not return) failed: the error's code (`search_failed` when it has none) and message.
   */
  searchError?: { code: string; message: string };
  /** excluded_by_filter: the clause its metadata fails, and whose it is. */
  clause?: MetadataFilter;
  clauseOrigin?: "caller" | "l0";
  /** merged_by_dedup: the evidence key it was merged into, and the port rank of the copy kept. */
  mergedInto?: string;
  keptPortRank?: number;
  /** cut_by_document_cap: `rag.max-chunks-per-document`. */
  maxChunksPerDocument?: number;
  /** cut_by_return_n: `rag.return-n`. */
  returnN?: number;
  /** truncated_by_budget / omitted_by_budget: `rag.context-budget` and the characters used. */
  contextBudget?: number;
  contextUsed?: number;
  /** truncated_by_budget: the characters of content kept, of how many. */
  keptChars?: number;
  originalLength?: number;
  /** attempt_refused: the attempt's best score and `rag.reference-threshold`. */
  topScore?: number;
  referenceThreshold?: number;
  /** A document's summary outcome: how many of its chunks had each outcome. */
  chunkCounts?: Partial<Record<ExplainOutcomeKind, number>>;
}

/** One attempt of the lookup, as explain saw it. */
export interface ExplainAttempt {
  /** 1 for the first attempt, 2 for the retry. */
  index: number;
  /** The whole filter the attempt sent to the port, if any. */
  filter?: MetadataFilter;
  /** The L0-derived part of it, if any. */
  l0Filter?: MetadataFilter;
  /** The attempt's own outcome in the retriever (`usable`, `low_quality`, ...). */
  attemptOutcome: string;
  /** The page behind the attempt's top score, as the retriever recorded it (issue 37 item 1). */
  topSource?: RetrievalAttempt["topSource"];
  /** Whether this attempt's evidence is what the lookup returned. */
  used: boolean;
  /** For a chunk: its outcome. For a document: the outcome of its best-placed chunk, with `chunkCounts`. */
  outcome: ExplainOutcome;
  /** For a document: one outcome per chunk of it (the ones this attempt saw first). For a chunk: present only when dedup merged copies of it, beside its own outcome. */
  chunks?: ExplainOutcome[];
}

/** What `expected` named, resolved against the store. */
export interface ExplainExpected {
  /** As given. */
  input: string;
  kind: "document" | "chunk";
  docId: string;
  /** The source path, when the ingest manifest knows the document. */
  source?: string;
  /** kind chunk: its evidence key. */
  evidenceKey?: string;
  /** How many chunks the document has in the store, when known. */
  chunkCount?: number;
  /** Whether the store holds it. */
  inIndex: boolean;
}

/** The answer of `explainLookup`: JSON-serialisable. */
export interface LookupExplanation {
  query: string;
  expected: ExplainExpected;
  /** Whether the expected document (any of its chunks) or chunk reached the model. */
  found: boolean;
  attempts: ExplainAttempt[];
  /** One or two sentences: where it ended up on the attempt the lookup used (or the last). */
  summary: string;
  /** The lookup's own result. */
  result: LookupResult;
}
