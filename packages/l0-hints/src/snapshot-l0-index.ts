import type { KnowledgeEntry } from "@lookup-knowledge/core";
import { analyzerVersion } from "@lookup-knowledge/text";
import type { L0IndexOptions } from "./l0-index-options.js";
import { termIndexSettings } from "./l0-index-over.js";
import { l0SnapshotVersion, snapshotSections, type SnapshotHead, type SnapshotSectionName } from "./l0-snapshot-layout.js";
import { parseKnowledgeEntries } from "./parse-knowledge-entries.js";
import { parseL0IndexOptions } from "./parse-l0-index-options.js";
import { buildTermIndex } from "./term-index.js";

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
  const spellingIds = new Map<string, number>();
  const spellings: string[] = [];
  const postingSpelling = Int32Array.from(terms.postingTerm, (term) => {
    let id = spellingIds.get(term);
    if (id === undefined) {
      id = spellings.length;
      spellingIds.set(term, id);
      spellings.push(term);
    }
    return id;
  });
  const arrays: Record<SnapshotSectionName, ArrayBufferView> = {
    phraseIds: Int32Array.from(terms.phraseIds.values()),
    cjkIds: Int32Array.from(terms.cjkIds.values()),
    patternWeight: terms.patternWeight,
    postingStart: terms.postingStart,
    postingEntry: terms.postingEntry,
    postingField: terms.postingField,
    postingSlot: terms.postingSlot,
    postingSpelling,
    postingTermKey: terms.postingTermKey,
    postingDistinctive: terms.postingDistinctive,
    patternEntries: terms.patternEntries,
    metadata: new TextEncoder().encode(JSON.stringify(parsed.map((entry) => entry.metadata ?? null))),
  };
  const head: Omit<SnapshotHead, "sections"> = {
    version: l0SnapshotVersion,
    analyzer: analyzerVersion,
    settings: { minTermLength: settings.minTermLength, maxEntries: settings.maxEntries, maxTermShare: settings.maxTermShare },
    maxTermEntries: terms.maxTermEntries,
    hasSingleUnitCjkTerms: terms.hasSingleUnitCjkTerms,
    entries: parsed.map((entry) => [entry.id, entry.source, entry.title ?? null, entry.keywords, entry.domain ?? null, entry.entities]),
    phraseKeys: [...terms.phraseIds.keys()],
    cjkKeys: [...terms.cjkIds.keys()],
    phraseLengths: [...terms.phraseLengthsByFirstWord],
    cjkLengths: [...terms.cjkLengthsByPrefix],
    titleRules: [...terms.titleRulesByAnchor].map(([anchor, rules]) => [anchor, rules.map((rule) => [rule.words, rule.pattern])]),
    spellings,
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

function align(offset: number): number {
  return Math.ceil(offset / 8) * 8;
}
