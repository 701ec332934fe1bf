import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { analyzerVersion } from "@lookup-knowledge/text";
import type { L0HintsErrorCode } from "./l0-hints-error-code.js";
import type { L0IndexOptions } from "./l0-index-options.js";
import type { L0Index } from "./l0-index.js";
import { l0IndexOver } from "./l0-index-over.js";
import { l0SnapshotVersion, type SnapshotHead } from "./l0-snapshot-layout.js";
import type { ParsedEntry } from "./parse-knowledge-entries.js";
import { parseL0IndexOptions } from "./parse-l0-index-options.js";
import { readSnapshotHead, snapshotSectionReader } from "./read-snapshot-head.js";
import { snapshotEntryTable } from "./snapshot-entry-table.js";
import { TermIndex } from "./term-index.js";

/**
 * Opens a snapshot `snapshotL0Index` wrote: an index whose hints are those of `createL0Index`
 * over the same entries and options, without building it. `options` must hold the numbers the
 * snapshot was taken with (`isCommonTerm` is not called: its answers are in the snapshot;
 * `isCommonTermIn` serves `within`). Throws a `LookupKnowledgeError` with code
 * `stale_l0_snapshot` when the snapshot was taken under other options, another text analyser
 * or an older layout, and `invalid_l0_snapshot` when its bytes do not hold a consistent index.
 * Only the structure is checked, not every value: a changed byte can still give other hints, so
 * keep a snapshot with a checksum of your own (the agent tool does). The index may keep views of `snapshot`'s memory: do not
 * change it afterwards. Pure: no I/O.
 */
export function restoreL0Index(snapshot: Uint8Array, options?: L0IndexOptions): L0Index {
  const settings = parseL0IndexOptions(options);
  const { head, dataStart } = readSnapshotHead(snapshot);
  if (head.version !== l0SnapshotVersion) {
    throw snapshotError("stale_l0_snapshot", `the L0 snapshot has layout version ${head.version}, this version reads ${l0SnapshotVersion}`);
  }
  if (head.analyzer !== analyzerVersion) {
    throw snapshotError("stale_l0_snapshot", `the L0 snapshot was written with another text analyser (${head.analyzer})`);
  }
  for (const name of ["minTermLength", "maxEntries", "maxTermShare"] as const) {
    if (head.settings[name] !== settings[name]) {
      throw snapshotError("stale_l0_snapshot", `the L0 snapshot was written with ${name} ${head.settings[name]}, not ${settings[name]}`);
    }
  }
  const section = snapshotSectionReader(snapshot, head, dataStart);
  const table = snapshotEntryTable(
    section("entries", "u8") as Uint8Array,
    section("entryOffsets", "i32") as Int32Array,
    section("entryDomain", "i32") as Int32Array,
    head.domains,
  );
  const terms = termIndexOf(head, section, table.count);
  // Read now (a truncated file fails at open), parsed when `within` first needs it.
  const metadataBytes = section("metadata", "u8") as Uint8Array;
  let withMetadata: ParsedEntry[] | undefined;
  return l0IndexOver(
    table,
    () => {
      withMetadata ??= attachMetadata(table.all(), metadataBytes);
      return withMetadata;
    },
    settings,
    terms,
  );
}

type SectionReader = ReturnType<typeof snapshotSectionReader>;

function termIndexOf(head: SnapshotHead, section: SectionReader, entryCount: number): TermIndex {
  const patternWeight = section("patternWeight", "f64") as Float64Array;
  const patternCount = patternWeight.length;
  const postingStart = section("postingStart", "i32") as Int32Array;
  const postingEntry = section("postingEntry", "i32") as Int32Array;
  const postingField = section("postingField", "u8") as Uint8Array;
  const postingSlot = section("postingSlot", "i32") as Int32Array;
  const postingSpelling = section("postingSpelling", "i32") as Int32Array;
  const postingTermKey = section("postingTermKey", "i32") as Int32Array;
  const postingDistinctive = section("postingDistinctive", "u8") as Uint8Array;
  const patternEntries = section("patternEntries", "i32") as Int32Array;
  const postingCount = postingEntry.length;
  const check = (holds: boolean, what: string): void => {
    if (!holds) throw snapshotError("invalid_l0_snapshot", `the L0 snapshot is inconsistent: ${what}`);
  };
  check(postingStart.length === patternCount + 1 && postingStart[0] === 0, "pattern starts");
  check(postingStart[patternCount] === postingCount && patternEntries.length === patternCount, "pattern counts");
  for (const array of [postingField, postingSlot, postingSpelling, postingTermKey, postingDistinctive]) {
    check(array.length === postingCount, "posting lengths");
  }
  for (let pattern = 0; pattern < patternCount; pattern += 1) {
    const start = postingStart[pattern] as number;
    const end = postingStart[pattern + 1] as number;
    check(start <= end, "pattern starts out of order");
    let previous = -1;
    for (let posting = start; posting < end; posting += 1) {
      const entry = postingEntry[posting] as number;
      check(entry >= 0 && entry >= previous && entry < entryCount, "posting entries");
      previous = entry;
      check((postingField[posting] as number) < 4 && (postingSpelling[posting] as number) < head.spellings.length, "posting fields");
      check((postingSpelling[posting] as number) >= 0, "posting spellings");
    }
  }
  const ids = (keys: string[], values: Int32Array): Map<string, number> => {
    check(keys.length === values.length, "term ids");
    const map = new Map<string, number>();
    keys.forEach((key, position) => {
      const pattern = values[position] as number;
      check(pattern >= 0 && pattern < patternCount, "term patterns");
      map.set(key, pattern);
    });
    return map;
  };
  const titleRules = new Map<string, Array<{ words: string[]; pattern: number }>>();
  for (const [anchor, rules] of head.titleRules) {
    titleRules.set(
      anchor,
      rules.map(([words, pattern]) => {
        check(Number.isInteger(pattern) && pattern >= 0 && pattern < patternCount, "title rule patterns");
        return { words, pattern };
      }),
    );
  }
  return new TermIndex(
    ids(head.phraseKeys, section("phraseIds", "i32") as Int32Array),
    new Map(head.phraseLengths),
    ids(head.cjkKeys, section("cjkIds", "i32") as Int32Array),
    new Map(head.cjkLengths),
    head.hasSingleUnitCjkTerms,
    titleRules,
    patternWeight,
    postingStart,
    postingEntry,
    postingField,
    postingSlot,
    postingSpelling,
    head.spellings,
    postingTermKey,
    postingDistinctive,
    patternEntries,
    head.maxTermEntries,
  );
}

/** The entries with their metadata, read from its section when `within` first needs it. */
function attachMetadata(parsed: ParsedEntry[], bytes: Uint8Array): ParsedEntry[] {
  let metadata: unknown;
  try {
    metadata = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw snapshotError("invalid_l0_snapshot", "the L0 snapshot's metadata is not JSON");
  }
  if (!Array.isArray(metadata) || metadata.length !== parsed.length) {
    throw snapshotError("invalid_l0_snapshot", "the L0 snapshot's metadata does not list every entry");
  }
  return parsed.map((entry, position) => {
    const value: unknown = metadata[position];
    if (value === null) return entry;
    if (typeof value !== "object" || Array.isArray(value)) {
      throw snapshotError("invalid_l0_snapshot", `the L0 snapshot's metadata of entry ${position} is not an object`);
    }
    return { ...entry, metadata: Object.freeze(value as Record<string, unknown>) };
  });
}

export function snapshotError(code: L0HintsErrorCode, message: string): LookupKnowledgeError<L0HintsErrorCode> {
  return new LookupKnowledgeError<L0HintsErrorCode>({ code, message });
}
