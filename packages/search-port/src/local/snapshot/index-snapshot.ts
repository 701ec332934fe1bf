import type { DenseMatrix } from "../dense/dense-matrix.js";
import type { TermScoreBounds } from "../lexical/term-score-bounds.js";
import type { RecordFile } from "../format/record-file.js";
import { parseMetadata } from "../format/file-records.js";
import { MemoryLexicon } from "../lexical/lexicon.js";
import type { Lexicon } from "../lexical/lexicon.js";
import { MemoryKeys } from "./snapshot-keys.js";
import type { SnapshotKeys } from "./snapshot-keys.js";

/**
 * The inverted index as arrays (a writer's, and every generation before format 4): for each term (sorted by UTF-16 code units) its postings, the
 * slots holding it in increasing order with the term's frequency there.
 */
export interface LexicalIndex {
  terms: string[];
  /** Where each term's postings start; `terms.length + 1` entries. */
  termStarts: Uint32Array;
  postingSlots: Uint32Array;
  /** Term frequencies, capped at 65535. */
  postingFrequencies: Uint16Array;
  /** Indexed terms per slot (the BM25 document length). */
  lengths: Uint32Array;
  totalLength: number;
}

/** A record not yet committed, held in memory. */
export interface MemoryRecord {
  content: string;
  metadataText: string;
  metadata?: Record<string, unknown>;
}

/**
 * Where each slot's content and metadata live: in the committed files (`fileSlots[slot]`
 * >= 0) or in memory.
 */
export interface RecordTable {
  file: RecordFile | undefined;
  fileSlots: Int32Array;
  memory: Array<MemoryRecord | undefined>;
  /** `fileSlots[slot] ?? -1`, where a table built on first read (a composed one) can tell one slot without building it. */
  fileSlotOf?: (slot: number) => number;
}

/**
 * One consistent state of the index, never changed once built: a search works on one
 * snapshot from start to end. Slots number the records 0..count-1. A committed generation
 * of format 4 opened by a reader reads keys, lexicon and vectors from its files when a
 * search first needs them (load-lazy-generation.ts); `vectors` may then be a getter that
 * reads them on first access and throws `CorruptIndexError` when they are damaged.
 */
export interface IndexSnapshot {
  count: number;
  keys: SnapshotKeys;
  lexicon: Lexicon;
  readonly vectors: DenseMatrix | undefined;
  /**
   * The vectors as `vectors` gives them, but not kept when they must be read from a file: what
   * composing several segments needs, which copies them into one matrix (absent: `vectors`).
   */
  readVectors?(): DenseMatrix | undefined;
  /** The dimension of vectors kept in a file, known without reading them (absent: no such vectors). */
  fileVectorDimension?: number | undefined;
  /** Reads those vectors straight into rows `firstRow`.. of `target`, a matrix of that dimension: no matrix of their own. */
  readVectorsInto?(target: DenseMatrix, firstRow: number): void;
  /**
   * Whether `vectors` gives a matrix, answered without reading it (absent: ask `vectors`;
   * `snapshotHasVectors`).
   */
  readonly hasVectors?: boolean;
  /** Those vectors in their file, to be read by rows (`streamedVectors`); absent when they are not in one file. */
  vectorRows?: VectorRowsFile | undefined;
  /**
   * For one exact dense scan: a streamed matrix (`DenseMatrix` option `streamed`) over the
   * vectors' files, given once, when that scan is the process's first and runs alone
   * (`firstScanRunsAlone`) and the vectors were not read yet (issue 36 item 5: a one-query
   * process reads them chunk by chunk into one window, not whole into fresh memory);
   * undefined otherwise: then `vectors`, which later searches keep.
   */
  streamedVectors?(): DenseMatrix | undefined;
  records: RecordTable;
  /** Filled on first use: k1 * (1 - b + b * length / average length) per slot. */
  lengthNorms?: Float32Array;
  /** Filled on first use: the lexical scores of one search, all zero between searches. */
  scratch?: Float64Array;
  /** Filled as searches need them: per-term score bounds (`termScoreBounds`), by term index. */
  scoreBounds?: { byTerm: Map<number, TermScoreBounds>; bytes: number };
}

/** A generation's vectors file, read by rows: its norms whole, its rows a range at a time, each block checked as it is read. */
export interface VectorRowsFile {
  readonly count: number;
  readonly dimension: number;
  /** The inverse norms of all `count` rows into `into`. */
  readNorms(into: Float32Array): void;
  /** The int8 rows `first..` into `into` (a whole number of rows). */
  readRows(first: number, into: Uint8Array): void;
}

/** Whether a search of `snapshot` has vectors, without reading them when the snapshot can say so. */
export function snapshotHasVectors(snapshot: IndexSnapshot): boolean {
  return snapshot.hasVectors ?? snapshot.vectors !== undefined;
}

export function emptySnapshot(): IndexSnapshot {
  return memorySnapshot({
    count: 0,
    ids: [],
    docIds: [],
    lexical: {
      terms: [],
      termStarts: new Uint32Array(1),
      postingSlots: new Uint32Array(0),
      postingFrequencies: new Uint16Array(0),
      lengths: new Uint32Array(0),
      totalLength: 0,
    },
    vectors: undefined,
    records: { file: undefined, fileSlots: new Int32Array(0), memory: [] },
  });
}

/** A snapshot held in memory, from its arrays. */
export function memorySnapshot(parts: {
  count: number;
  ids: readonly string[];
  docIds: ReadonlyArray<string | null>;
  lexical: LexicalIndex;
  vectors: DenseMatrix | undefined;
  records: RecordTable;
}): IndexSnapshot {
  const { count, ids, docIds, lexical, vectors, records } = parts;
  return { count, keys: new MemoryKeys(ids, docIds), lexicon: new MemoryLexicon(lexical), vectors, records };
}

/** Where slot `slot`'s record is in the table's file (-1: in memory), as cheaply as the table can tell. */
export function fileSlotOf(table: RecordTable, slot: number): number {
  return table.fileSlotOf === undefined ? (table.fileSlots[slot] ?? -1) : table.fileSlotOf(slot);
}

export function recordContent(table: RecordTable, slot: number): string {
  const fileSlot = fileSlotOf(table, slot);
  if (fileSlot >= 0 && table.file !== undefined) return table.file.content(fileSlot);
  return table.memory[slot]?.content ?? "";
}

/** A fresh copy of a slot's metadata. */
export function recordMetadata(table: RecordTable, slot: number, directory: string): Record<string, unknown> {
  const fileSlot = fileSlotOf(table, slot);
  if (fileSlot >= 0 && table.file !== undefined) return table.file.metadata(fileSlot);
  return parseMetadata(table.memory[slot]?.metadataText ?? "{}", directory);
}

/** A slot's metadata for filtering: shared, parsed once, not to be changed. */
export function sharedMetadata(table: RecordTable, slot: number, directory: string): Record<string, unknown> {
  const fileSlot = table.fileSlots[slot] ?? -1;
  if (fileSlot >= 0 && table.file !== undefined) return table.file.allMetadata()[fileSlot] ?? {};
  const record = table.memory[slot];
  if (record === undefined) return {};
  record.metadata ??= parseMetadata(record.metadataText, directory);
  return record.metadata;
}
