/**
 * The layout of an L0 snapshot (`snapshotL0Index`): a little-endian u32 with the byte length
 * of a JSON head, the head, then, from the first multiple of 8 after it, the typed arrays of the term
 * index, each at an offset the head gives (a multiple of 8). Bump `l0SnapshotVersion` whenever the layout or what the index
 * builds from entries changes: a snapshot of another version is stale, never read.
 */
export const l0SnapshotVersion = 2;

/** The typed sections after the head, in this order. */
export const snapshotSections = [
  ["phraseIds", "i32"],
  ["cjkIds", "i32"],
  ["patternWeight", "f64"],
  ["postingStart", "i32"],
  ["postingEntry", "i32"],
  ["postingField", "u8"],
  ["postingSlot", "i32"],
  ["postingSpelling", "i32"],
  ["postingTermKey", "i32"],
  ["postingDistinctive", "u8"],
  ["patternEntries", "i32"],
  /** Each entry as a JSON `SnapshotEntry`, one after another (UTF-8), read one by one when a query returns it. */
  ["entries", "u8"],
  /** Byte offset of each entry in `entries`, and its end (entries + 1 values). */
  ["entryOffsets", "i32"],
  /** Index into the head's `domains` of each entry's domain, -1 without one. */
  ["entryDomain", "i32"],
  /** Each entry's metadata as JSON (UTF-8): an array of objects or null, read only by `within`. */
  ["metadata", "u8"],
] as const;

export type SnapshotSectionName = (typeof snapshotSections)[number][0];

/** An entry in the head: id, source, title, keywords, domain, entities (absent values as null). */
export type SnapshotEntry = [string, string, string | null, string[], string | null, string[]];

export interface SnapshotHead {
  version: number;
  /** `analyzerVersion` of @lookup-knowledge/text when written: terms of another analyser are other patterns. */
  analyzer: string;
  settings: { minTermLength: number; maxEntries: number; maxTermShare: number };
  maxTermEntries: number;
  hasSingleUnitCjkTerms: boolean;
  /** The distinct domains; `entryDomain` points into it. */
  domains: string[];
  phraseKeys: string[];
  cjkKeys: string[];
  phraseLengths: Array<[string, number[]]>;
  cjkLengths: Array<[string, number[]]>;
  /** Title rules by anchor word: [anchor, [[words, pattern], ...]]. */
  titleRules: Array<[string, Array<[string[], number]>]>;
  /** The distinct spellings of posting terms; `postingSpelling` points into it. */
  spellings: string[];
  /** Byte offset and length of each typed section, from the first multiple of 8 after the head. */
  sections: Record<SnapshotSectionName, [number, number]>;
}
