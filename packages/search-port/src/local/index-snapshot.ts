import type { DenseMatrix } from "./dense-matrix.js";
import type { FileRecords } from "./file-records.js";
import { parseMetadata } from "./file-records.js";

/**
 * The inverted index: for each term (sorted by UTF-16 code units) its postings, the
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
  file: FileRecords | undefined;
  fileSlots: Int32Array;
  memory: Array<MemoryRecord | undefined>;
}

/**
 * One consistent state of the index, never changed once built: a search works on one
 * snapshot from start to end. Slots number the records 0..count-1.
 */
export interface IndexSnapshot {
  count: number;
  ids: string[];
  /** The record's document (`docId`, else `doc_id`), or null. */
  docIds: Array<string | null>;
  lexical: LexicalIndex;
  vectors: DenseMatrix | undefined;
  records: RecordTable;
  /** Filled on first use: k1 * (1 - b + b * length / average length) per slot. */
  lengthNorms?: Float32Array;
}

export function emptySnapshot(): IndexSnapshot {
  return {
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
  };
}

/** The index of `term` in the sorted `terms`, or -1. */
export function findTerm(terms: readonly string[], term: string): number {
  let low = 0;
  let high = terms.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const candidate = terms[middle] as string;
    if (candidate === term) return middle;
    if (candidate < term) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

export function recordContent(table: RecordTable, slot: number): string {
  const fileSlot = table.fileSlots[slot] ?? -1;
  if (fileSlot >= 0 && table.file !== undefined) return table.file.content(fileSlot);
  return table.memory[slot]?.content ?? "";
}

/** A fresh copy of a slot's metadata. */
export function recordMetadata(table: RecordTable, slot: number, directory: string): Record<string, unknown> {
  const fileSlot = table.fileSlots[slot] ?? -1;
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
