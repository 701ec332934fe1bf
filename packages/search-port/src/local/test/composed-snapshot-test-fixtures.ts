// Random segments for the composeSnapshot tests (not built, not shipped).
import { lexicalTerms } from "@lookup-knowledge/text";
import { strideFor } from "../dense/dense-matrix.js";
import { quantiseVector } from "../dense/quantise-vector.js";
import { emptySnapshot } from "../snapshot/index-snapshot.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { mergeSnapshot } from "../snapshot/merge-snapshot.js";
import { PendingChanges } from "../snapshot/pending-changes.js";
import { random } from "./seeded-random-test-fixtures.js";
import type { SegmentPart } from "../segments/segment-part.js";

export const dimension = 12;
export const categories = ["alpha", "beta", "gamma"] as const;

/** One record as a test writes it. */
export interface TestRecord {
  id: string;
  docId: string | null;
  content: string;
  metadata: { category: string; rank: number; docId?: string };
  vector: number[] | undefined;
}

/** Words of two to three syllables: the analyser keeps them whole, so most stay distinct terms. */
export function vocabulary(size: number, next: () => number): string[] {
  const syllables = ["ka", "lo", "mi", "ne", "po", "ru", "sa", "ti", "vo", "ze", "bra", "kel", "dun", "fir"];
  const words = new Set<string>();
  while (words.size < size) {
    const length = 2 + Math.floor(2 * next());
    let word = "";
    for (let index = 0; index < length; index += 1) word += syllables[Math.floor(syllables.length * next())];
    words.add(word);
  }
  return [...words];
}

/** A word with Zipf-like odds: the first words of `words` common, the last rare. */
export function zipfWord(words: readonly string[], next: () => number): string {
  return words[Math.floor(words.length * next() ** 3)] as string;
}

export function randomVector(next: () => number): number[] {
  return Array.from({ length: dimension }, () => next() * 2 - 1);
}

/** A snapshot of `records` in memory, as a writer's uncommitted segment holds them (`dimension` 0: no vectors). */
export function memoryPart(records: readonly TestRecord[], withDimension: number): IndexSnapshot {
  const pending = new PendingChanges(0);
  const stride = strideFor(dimension);
  for (const record of records) {
    const counted = pending.countTerms(lexicalTerms(record.content));
    const codes = record.vector === undefined ? undefined : new Int8Array(stride);
    const inverseNorm = codes === undefined ? 0 : quantiseVector(record.vector as number[], codes);
    pending.added.set(record.id, {
      id: record.id,
      docId: record.docId,
      content: record.content,
      metadataText: JSON.stringify(record.metadata),
      ...counted,
      length: lexicalTerms(record.content).length,
      codes,
      inverseNorm,
    });
  }
  return mergeSnapshot(emptySnapshot(), pending, withDimension);
}

/** Random segments as a sequence of commits makes them, and the live records in composed order. */
export interface RandomSegments {
  parts: SegmentPart[];
  records: TestRecord[][];
  live: TestRecord[];
  words: string[];
}

/**
 * 1 to 7 parts of 0 to 60 records (some parts empty, some without vectors); a record whose id
 * an earlier part holds replaces it (the earlier one deleted, as an upsert does), and some
 * records are deleted at random, some parts whole.
 */
export function randomSegments(seed: number): RandomSegments {
  const next = random(seed);
  const words = vocabulary(120, next);
  const partCount = 1 + Math.floor(7 * next());
  const records: TestRecord[][] = [];
  const deletions: Uint8Array[] = [];
  const where = new Map<string, { part: number; slot: number }>();
  for (let part = 0; part < partCount; part += 1) {
    const size = next() < 0.15 ? 0 : Math.floor(60 * next());
    const withVectors = next() < 0.8;
    const list: TestRecord[] = [];
    const ids = new Set<string>();
    while (list.length < size) {
      const document = Math.floor(40 * next());
      const id = `doc${document}#chunk-${Math.floor(3 * next())}`;
      if (ids.has(id)) continue;
      ids.add(id);
      const before = where.get(id);
      if (before !== undefined) (deletions[before.part] as Uint8Array)[before.slot] = 1;
      where.set(id, { part, slot: list.length });
      const length = 1 + Math.floor(30 * next());
      const content = Array.from({ length }, () => zipfWord(words, next)).join(" ");
      const docId = next() < 0.9 ? `doc${document}` : null;
      const metadata = {
        category: categories[Math.floor(3 * next())] as string,
        rank: Math.floor(10 * next()),
        ...(docId === null ? {} : { docId }),
      };
      list.push({ id, docId, content, metadata, vector: withVectors ? randomVector(next) : undefined });
    }
    records.push(list);
    deletions.push(new Uint8Array(size));
  }
  for (const deleted of deletions) {
    const wholly = next() < 0.1;
    for (let slot = 0; slot < deleted.length; slot += 1) if (wholly || next() < 0.1) deleted[slot] = 1;
  }
  const parts = records.map((list, part) => {
    const deleted = deletions[part] as Uint8Array;
    const snapshot = memoryPart(list, list.some((record) => record.vector !== undefined) ? dimension : 0);
    return deleted.includes(1) || next() < 0.5 ? { snapshot, deleted } : { snapshot };
  });
  const live = records.flatMap((list, part) => list.filter((_, slot) => (deletions[part] as Uint8Array)[slot] !== 1));
  return { parts, records, live, words };
}
