import type { KnowledgeEntry } from "@lookup-knowledge/core";
import { analyzerVersion } from "@lookup-knowledge/text";
import type { L0IndexOptions } from "./l0-index-options.js";
import { termIndexSettings } from "./l0-index-over.js";
import { l0SnapshotVersion, snapshotSections, type SnapshotHead, type SnapshotSectionName } from "./l0-snapshot-layout.js";
import { parseKnowledgeEntries } from "./parse-knowledge-entries.js";
import { parseL0IndexOptions } from "./parse-l0-index-options.js";
import { buildTermIndex } from "./term-index.js";
import { arrayEntryTable, type EntryTable } from "./entry-table.js";
import type { ParsedEntry } from "./parse-knowledge-entries.js";
import type { SnapshotEntry } from "./l0-snapshot-layout.js";

/**
 * Builds the L0 index of `entries` as `createL0Index` does and returns it in a compact form
 * that `restoreL0Index` opens without building it again: the same hints for every query, and
 * the same `within`. What `options.isCommonTerm` said of each term is recorded, so a snapshot
 * stands for the statistics it was taken with: a caller keeps it only while those hold (the
 * local index's committed generation). `isCommonTermIn` is not recorded: `restoreL0Index`
 * takes it again. Entry metadata must be JSON data (it is written as JSON). Pure: no I/O.
 */
export function snapshotL0Index(entries: KnowledgeEntry[], options?: L0IndexOptions): Uint8Array {
  const parsed = parseKnowledgeEntries(entries);
  const settings = parseL0IndexOptions(options);
  const terms = buildTermIndex(parsed, termIndexSettings(parsed.length, settings));
  const table = arrayEntryTable(parsed);
  const arrays: Record<SnapshotSectionName, ArrayBufferView> = {
    phraseIds: Int32Array.from(terms.phraseIds.values()),
    cjkIds: Int32Array.from(terms.cjkIds.values()),
    patternWeight: terms.patternWeight,
    postingStart: terms.postingStart,
    postingEntry: terms.postingEntry,
    postingField: terms.postingField,
    postingSlot: terms.postingSlot,
    postingSpelling: terms.postingSpelling,
    postingTermKey: terms.postingTermKey,
    postingDistinctive: terms.postingDistinctive,
    patternEntries: terms.patternEntries,
    metadata: new TextEncoder().encode(JSON.stringify(parsed.map((entry) => entry.metadata ?? null))),
    ...entrySections(parsed, table),
  };
  const head: Omit<SnapshotHead, "sections"> = {
    version: l0SnapshotVersion,
    analyzer: analyzerVersion,
    settings: { minTermLength: settings.minTermLength, maxEntries: settings.maxEntries, maxTermShare: settings.maxTermShare },
    maxTermEntries: terms.maxTermEntries,
    hasSingleUnitCjkTerms: terms.hasSingleUnitCjkTerms,
    domains: [...table.domainNames],
    phraseKeys: [...terms.phraseIds.keys()],
    cjkKeys: [...terms.cjkIds.keys()],
    phraseLengths: [...terms.phraseLengthsByFirstWord],
    cjkLengths: [...terms.cjkLengthsByPrefix],
    titleRules: [...terms.titleRulesByAnchor].map(([anchor, rules]) => [anchor, rules.map((rule) => [rule.words, rule.pattern])]),
    spellings: [...terms.spellings],
  };
  return pack(head, arrays);
}

/** Lays out the head, then the sections from the first multiple of 8 after it. */
function pack(head: Omit<SnapshotHead, "sections">, arrays: Record<SnapshotSectionName, ArrayBufferView>): Uint8Array {
  const sections = {} as Record<SnapshotSectionName, [number, number]>;
  let offset = 0;
  for (const [name] of snapshotSections) {
    offset = align(offset);
    sections[name] = [offset, arrays[name].byteLength];
    offset += arrays[name].byteLength;
  }
  const headBytes = new TextEncoder().encode(JSON.stringify({ ...head, sections }));
  const dataStart = align(4 + headBytes.length);
  const bytes = new Uint8Array(dataStart + offset);
  new DataView(bytes.buffer).setUint32(0, headBytes.length, true);
  bytes.set(headBytes, 4);
  for (const [name] of snapshotSections) {
    const view = arrays[name];
    bytes.set(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), dataStart + sections[name][0]);
  }
  return bytes;
}

/** Each entry's JSON, one after another, with where each starts, and its domain's number. */
function entrySections(parsed: ParsedEntry[], table: EntryTable): Record<"entries" | "entryOffsets" | "entryDomain", ArrayBufferView> {
  const encoder = new TextEncoder();
  const encoded = parsed.map((entry) => {
    const tuple: SnapshotEntry = [entry.id, entry.source, entry.title ?? null, entry.keywords, entry.domain ?? null, entry.entities];
    return encoder.encode(JSON.stringify(tuple));
  });
  const entryOffsets = new Int32Array(parsed.length + 1);
  encoded.forEach((bytes, position) => {
    entryOffsets[position + 1] = (entryOffsets[position] as number) + bytes.length;
  });
  const entries = new Uint8Array(entryOffsets[parsed.length] as number);
  encoded.forEach((bytes, position) => {
    entries.set(bytes, entryOffsets[position] as number);
  });
  return { entries, entryOffsets, entryDomain: table.entryDomain };
}

function align(offset: number): number {
  return Math.ceil(offset / 8) * 8;
}
