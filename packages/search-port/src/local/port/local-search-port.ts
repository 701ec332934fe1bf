import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { MetadataFilter } from "@lookup-knowledge/core";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import type { KnowledgeRecordReader } from "../../knowledge-record-reader.js";
import type { KnowledgeSearchPort } from "../../knowledge-search-port.js";
import type { KnowledgeWriter } from "../../knowledge-writer.js";
import type { AnswerabilityModel } from "../answerability/answerability-model.js";
import type { RefreshError } from "../reader/reader-refresh.js";

/** Who made an index's vectors. Two identities are the same embedder when all three fields are equal. */
export interface EmbedderIdentity {
  id: string;
  version: string;
  dimension: number;
}

/** How to open a local index folder. */
export interface LocalSearchPortOptions {
  /** The index folder. A writer creates it when missing. */
  directory: string;
  /**
   * Embeds records at upsert time (`embedDocuments`) and queries at search time
   * (`embedQuery`). Without it the port is lexical only; so is a reader of an index built
   * without embeddings (a writer with embeddings refuses such an index unless it is empty).
   */
  embeddings?: EmbeddingsInterface;
  /**
   * The identity of `embeddings`, recorded in the index and checked on every open. Defaults
   * to `embeddings.identity` (the offline embedder has one); required when `embeddings` has
   * none.
   */
  embedder?: EmbedderIdentity;
  /** `"read"` (the default) opens the last committed state; `"write"` also takes the folder's lock. */
  mode?: "read" | "write";
  /**
   * What a writer does with an index whose vectors another embedder made (an earlier version
   * of the offline embedder, say): `"refuse"` (the default) throws `EmbedderMismatchError`;
   * `"start-empty"` opens it as an empty index. The committed generation stays as it is, and
   * readable by readers of its embedder, until this writer's first commit replaces it whole:
   * write every record again before committing (`ingestFolder` with `rebuild` does). A
   * function decides from what the committed index holds, once the writer holds the lock.
   * Only a writer may start empty.
   */
  onEmbedderChange?: "refuse" | "start-empty" | ((committed: CommittedIndexSummary) => "refuse" | "start-empty");
  /**
   * The weight of the dense (embedding) score in the fused score of a query in scripts other
   * than Chinese, Japanese and Korean, 0..1: `fused = (1 - w) * lexical + w * dense`. Default
   * 0.25, chosen by measurement (README, "Fusion"). Given alone, it is the weight of every
   * query: 0 ranks by BM25 alone and never embeds the query. Without `embeddings` the port is
   * lexical only whatever the weight.
   */
  denseWeight?: number;
  /**
   * The dense weight of a query in CJK scripts (Chinese, Japanese, Korean), 0..1; a query of
   * both takes the two weights mixed by its share of CJK terms (`queryDenseWeight`). Default
   * `denseWeight` when that is given, else 0.05, chosen by measurement with the offline
   * embedder (README, "Fusion"). A query whose weight is 0 is not embedded.
   */
  cjkDenseWeight?: number;
  /**
   * The cosine that unrelated texts reach with your embedder, 0..<1: the dense score is
   * `(cosine - denseFloor) / (1 - denseFloor)`, clipped to 0..1. Default 0.3, measured for
   * the offline embedder; embedders whose unrelated texts sit at higher cosines (many
   * neural ones do) need a higher floor.
   */
  denseFloor?: number;
  /**
   * Approximate dense search, for indexes of a million chunks and more (README,
   * "Approximate dense search"): a one-bit sketch of every vector picks the `candidates`
   * records with the best estimated cosine; those, and the `candidates / 10` records with
   * the best lexical scores, get their exact dense score and are ranked as usual. Returned
   * scores are exact for their records; a record outside both lists can be missed. `true`
   * or `{}`: 20,000 candidates (`defaultApproximateCandidates`). Default `false`: every
   * record's dense score is exact.
   */
  approximateDense?: { candidates?: number } | boolean;
  /**
   * A cut on the fused ranking score: hits below it are not returned, 0..1. Default 0 (every
   * hit with a positive score). The answerability judgement never drops a hit.
   */
  minScore?: number;
  /**
   * The model that judges whether the best hit answers the query: a 0..1 probability on the
   * first hit (`SearchHit.answerability`, with the signals it read), which is what
   * `rag.reference-threshold` compares with (R9, R11). It never changes a hit's score or
   * the order: every hit keeps its fused ranking score. Default `defaultAnswerabilityModel`,
   * fitted by `pnpm --filter @lookup-knowledge/eval run calibrate`; `lookup-knowledge
   * calibrate` fits one for your own questions. `false`: no judgement (the retriever then
   * compares the fused score).
   */
  answerability?: AnswerabilityModel | false;
  /**
   * A reader (`mode: "read"`) picks up newer commits: at the start of a search, at most this
   * often, it checks `manifest.json` (one `stat`) and, when a writer committed, loads the new
   * generation (that search pays for the load). Milliseconds, default 1000; 0 checks before
   * every search. A search already running finishes on the generation it started with.
   * Ignored by a writer (it makes the commits).
   */
  refreshIntervalMs?: number;
  /**
   * How many bytes of postings a reader keeps in memory, in a ring of reused memory where the
   * lists read last stay until newer ones need their room (a list larger than a quarter of it
   * is never kept; the ring is never larger than the postings file). Default: a quarter of the
   * index's postings file, at least 4 MB and at most 16 MB (16 MB at a million chunks). 0 keeps none: every search reads its terms' postings
   * from the file (the operating system's cache still holds them) into memory the reader uses
   * again. Whole bytes, 0 or more. Ignored by a writer (it holds its lexicon in memory) and by
   * indexes of format 3 or older (read whole).
   */
  postingsCacheBytes?: number;
  /**
   * Called, once per commit, when a reader cannot load a newer commit (its files are
   * corrupt, `CorruptIndexError`; or it was written with another embedder or analyser,
   * `EmbedderMismatchError` / `AnalyzerMismatchError`). The reader keeps serving the
   * generation it has and does not try that commit again: it tries again when the manifest
   * changes (the next commit). `stats().refreshError` shows the failure until a later commit
   * loads. Default: `console.warn`. Ignored by a writer.
   */
  onRefreshError?: (error: Error) => void;
}

/** What `onEmbedderChange` is told of the committed index whose embedder differs. */
export interface CommittedIndexSummary {
  /** Whose vectors it holds (null: none). */
  embedder: EmbedderIdentity | null;
  chunks: number;
  documents: number;
}

/** What an index holds. */
export interface LocalIndexStats {
  /** Distinct documents (`docId` / `doc_id`); a record without one counts as its own document. */
  documents: number;
  /** Records (chunks). */
  chunks: number;
  /** The embedder whose vectors the index holds; absent for a lexical-only index. */
  embedder?: EmbedderIdentity;
  /** Bytes of the last committed generation: its data files and the manifest. */
  bytesOnDisk: number;
  /** When the last commit happened (ISO 8601); absent before the first commit. */
  lastCommit?: string;
  /**
   * A reader only, and only while the newest commit could not be loaded: why (the code and
   * message of the error), and when. The counts and `lastCommit` are then those of the
   * generation still served. Cleared once a later commit loads.
   */
  refreshError?: RefreshError;
}

/**
 * The embedded default port: hybrid BM25 + dense search over an index kept in one folder.
 * Searches see every upsert and delete of this port at once; other processes see them
 * after `commit`.
 */
export interface LocalSearchPort extends KnowledgeSearchPort, KnowledgeWriter, KnowledgeRecordReader {
  /**
   * Writes pending upserts and deletes as a new generation and switches the manifest to
   * it atomically: a crash at any point leaves the previous commit readable. Write mode only.
   */
  commit(): Promise<void>;
  /**
   * Asks the embedder now for the vectors of records about to be upserted (see
   * `KnowledgeWriter.embedAhead`); the upsert of the same id and text takes them. At most
   * 8,192 records' vectors are held ahead (past that the oldest are let go) and 4 calls asked
   * ahead run at once (the next wait); `close` lets go of the rest. In read mode or without
   * embeddings it does nothing. Never throws: a bad record is refused by its upsert.
   */
  embedAhead(records: readonly KnowledgeRecord[]): void;
  /**
   * How common a text's rarest word is in the committed index: the smallest share of records
   * holding one of its analysed terms, 0..1 (0 when a term is in no record). The L0 index
   * reads it to tell a common phrase ("load balance") from a specific one (`isCommonTerm`).
   * With `scope` (a metadata filter: tenant, access scope), only the records it admits count,
   * as searches under that scope count them.
   */
  termShare(text: string, scope?: MetadataFilter): number;
  /** How many records of the committed index `scope` admits (all of them without one). */
  scopeSize(scope?: MetadataFilter): number;
  /** Counts of what searches see now (pending changes included); bytes and time of the last commit. */
  stats(): LocalIndexStats;
  /**
   * Refuses new calls at once, lets calls already made finish (a queued `commit` still
   * commits, a running search still returns), then releases the lock and the open files.
   * Upserts and deletes not committed by then are discarded. Every later call rejects
   * (code `index_closed`).
   */
  close(): Promise<void>;
}
