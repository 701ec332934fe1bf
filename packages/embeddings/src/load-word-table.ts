import { endianness } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CorruptWordTableError } from "./corrupt-word-table-error.js";
import { checkFileEntries, readBytes, readVerified } from "./read-verified-file.js";
import { LazyWordVectors, blockListSha256, blockedEntry } from "./lazy-word-vectors.js";
import type { BlockedFileEntry } from "./lazy-word-vectors.js";
import { readWordIndex } from "./read-word-index.js";

/** The word vectors that ship in `data/`, quantised to int8 with one scale per word. */
export interface WordTable {
  /** Number of words; ranks run from 0 (most frequent) to `wordCount - 1`. */
  readonly wordCount: number;
  /** Length of each word vector. */
  readonly dimension: number;
  /** The words, most frequent first: a word's position is its rank and its row (split from words.txt on first use). */
  readonly words: readonly string[];
  /** One float32 scale per word: a value is `values[rank * dimension + column] * scales[rank]` (all read and checked on first use). */
  readonly scales: Float32Array;
  /** All vectors, word after word, as int8 (all read and checked on first use). */
  readonly values: Int8Array;
  /**
   * `scales` and `values` with the entries of `ranks` read and checked (only the blocks that
   * hold them, when the manifest lists blocks): what embedding one text needs.
   */
  vectorsOf(ranks: Iterable<number>): { scales: Float32Array; values: Int8Array };
  /** SHA-256 (hex) of `word-vectors.bin`, as recorded (and verified whole, or block by block against `vectorsBlocksSha256`'s list). */
  readonly vectorsSha256: string;
  /** SHA-256 (hex) of the manifest's block list of `word-vectors.bin` (`blockListSha256`), "" when it has none (the file is read whole). */
  readonly vectorsBlocksSha256: string;
  /** The description the table was built with (`word-table.json`). */
  readonly manifest: WordTableManifest;
  /** The unit direction that every averaged text vector leans towards (recorded in word-index.bin). */
  readonly commonDirection: Float64Array;
  /** The rank (row) of a word, or -1 when the table does not hold it. Words are lower case. */
  rankOf(word: string): number;
}

/** What `data/word-table.json` holds; see `scripts/build-word-table.mjs`. */
export interface WordTableManifest {
  formatVersion: number;
  wordCount: number;
  dimension: number;
  source: { name: string; version: string };
  files: Record<string, { bytes: number; sha256: string }>;
}

export interface LoadWordTableOptions {
  /**
   * The folder holding `word-table.json`, `word-vectors.bin` and `words.txt`. Defaults to the
   * `data/` folder of this package, found beside `dist/` (or `src/`).
   */
  directory?: string | URL;
}

const manifestFile = "word-table.json";
const vectorsFile = "word-vectors.bin";
const wordsFile = "words.txt";
const indexFile = "word-index.bin";
const supportedFormatVersion = 1;
const magic = "LKWV";
const headerBytes = 16;

const cache = new Map<string, WordTable>();
const littleEndian = endianness() === "LE";

/**
 * Loads the word table synchronously, checking every file against the SHA-256 recorded in
 * `word-table.json` (`word-vectors.bin` a 64 KB block at a time, as the words a text holds
 * need it, when the manifest lists its blocks' SHA-256); a mismatch, a missing file or a bad layout throws a
 * `CorruptWordTableError` (code `corrupt_word_table`) naming the file. The table is read once
 * per folder and process; later calls return the same object. Never touches the network.
 */
export function loadWordTable(options: LoadWordTableOptions = {}): WordTable {
  const directory = resolveDataDirectory(options.directory);
  const cached = cache.get(directory);
  if (cached !== undefined) return cached;
  const table = readWordTable(directory);
  cache.set(directory, table);
  return table;
}

/** The folder holding the data files: `directory`, or this package's `data/` (beside `dist/` or `src/`). */
export function resolveDataDirectory(directory: string | URL | undefined): string {
  if (directory === undefined) return resolve(fileURLToPath(new URL("../data/", import.meta.url)));
  return resolve(directory instanceof URL ? fileURLToPath(directory) : directory);
}

function readWordTable(directory: string): WordTable {
  const manifestPath = join(directory, manifestFile);
  const { manifest, vectorsBlocks } = parseManifest(readBytes(manifestPath).toString("utf8"), manifestPath);

  const vectorsPath = join(directory, vectorsFile);
  // Read by blocks as texts need them when the manifest lists them (issue 36 item 5: a cold
  // query reads a few of its 80 blocks, not 5.2 MB through one SHA-256); whole otherwise, and
  // on a big-endian machine, whose scales are converted value by value.
  const lazy = vectorsBlocks !== undefined && littleEndian ? new LazyWordVectors(vectorsPath, vectorsBlocks, manifestPath) : undefined;
  lazy?.loadRanges([0, headerBytes]);
  const vectorBytes = lazy?.bytes ?? readVerified(vectorsPath, manifest.files[vectorsFile], manifestPath);
  const wordsPath = join(directory, wordsFile);
  const wordBytes = readVerified(wordsPath, manifest.files[wordsFile], manifestPath);

  const { wordCount, dimension } = manifest;
  const expectedBytes = headerBytes + wordCount * 4 + wordCount * dimension;
  if (vectorBytes.byteLength !== expectedBytes) {
    throw new CorruptWordTableError({
      file: vectorsPath,
      reason: `${vectorBytes.byteLength} bytes where ${wordCount} words of dimension ${dimension} need ${expectedBytes}`,
    });
  }
  const header = new DataView(vectorBytes.buffer, vectorBytes.byteOffset, headerBytes);
  const headerMagic = vectorBytes.toString("latin1", 0, 4);
  const headerVersion = header.getUint32(4, true);
  const headerCount = header.getUint32(8, true);
  const headerDimension = header.getUint32(12, true);
  if (headerMagic !== magic || headerVersion !== manifest.formatVersion) {
    throw new CorruptWordTableError({
      file: vectorsPath,
      reason: `header says ${JSON.stringify(headerMagic)} format ${headerVersion}, expected "${magic}" format ${manifest.formatVersion}`,
    });
  }
  if (headerCount !== wordCount || headerDimension !== dimension) {
    throw new CorruptWordTableError({
      file: vectorsPath,
      reason: `header says ${headerCount} words of dimension ${headerDimension}, ${manifestFile} says ${wordCount} of ${dimension}`,
    });
  }

  // One copy of the scales (the buffer need not be aligned for a Float32Array view); value by
  // value only on a big-endian machine.
  const scalesStart = vectorBytes.byteOffset + headerBytes;
  const scales = lazy
    ? new Float32Array(vectorBytes.buffer, scalesStart, wordCount)
    : littleEndian
      ? new Float32Array(vectorBytes.buffer.slice(scalesStart, scalesStart + wordCount * 4) as ArrayBuffer)
      : Float32Array.from({ length: wordCount }, (_, rank) => vectorBytes.readFloatLE(headerBytes + rank * 4));
  const valuesStart = headerBytes + wordCount * 4;
  const values = new Int8Array(vectorBytes.buffer, vectorBytes.byteOffset + valuesStart, wordCount * dimension);
  const vectorsOf = (ranks: Iterable<number>) => {
    if (lazy !== undefined && !lazy.complete) {
      const ranges: number[] = [];
      for (const rank of ranks)
        ranges.push(
          headerBytes + rank * 4,
          headerBytes + rank * 4 + 4,
          valuesStart + rank * dimension,
          valuesStart + (rank + 1) * dimension,
        );
      lazy.loadRanges(ranges);
    }
    return { scales, values };
  };

  // Words are found by a binary search in the index's sorted ranks, comparing UTF-8 bytes, not
  // through a Map of all 50,000 words: building that Map was most of a cold start's table load.
  const indexPath = join(directory, indexFile);
  if (manifest.files[indexFile] === undefined) {
    // A table folder made before the index existed (issue 36 item 5) still loaded until then.
    throw new CorruptWordTableError({
      file: indexPath,
      reason: `is not recorded in ${manifestPath}: a table built before ${indexFile} needs it written (scripts/build-word-index.mjs <folder>, in the repository)`,
    });
  }
  const indexBytes = readVerified(indexPath, manifest.files[indexFile], manifestPath);
  const { commonDirection, starts, sortedRanks } = readWordIndex(indexBytes, indexPath, wordCount, dimension, wordBytes.byteLength);
  const rankOf = (word: string): number => {
    // An ASCII word (nearly every one) is compared as it is, its char codes being its bytes: no buffer per lookup.
    const ascii = isAscii(word);
    const target = ascii ? undefined : Buffer.from(word, "utf8");
    let low = 0;
    let high = wordCount - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const rank = sortedRanks[middle] as number;
      const start = starts[rank] as number;
      const end = (starts[rank + 1] as number) - 1;
      // The checksum proves the index is the one recorded, not that it was written right: a
      // rank out of range (NaN here) or a line of no word would make lookups miss in silence.
      // Checked per probe, not in a pass over the index at load (~4 ms of a cold start).
      if (!(end > start)) throw badIndexEntry(indexPath, middle, rank, start, end);
      const order =
        target === undefined ? asciiOrder(wordBytes, start, end, word) : wordBytes.compare(target, 0, target.byteLength, start, end);
      if (order === 0) return rank;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  };
  let words: readonly string[] | undefined;

  return {
    wordCount,
    dimension,
    get words() {
      words ??= wordBytes.toString("utf8", 0, wordBytes.byteLength - 1).split("\n");
      return words;
    },
    get scales() {
      lazy?.loadAll();
      return scales;
    },
    get values() {
      lazy?.loadAll();
      return values;
    },
    vectorsOf,
    commonDirection,
    vectorsSha256: manifest.files[vectorsFile]?.sha256 ?? "",
    vectorsBlocksSha256: vectorsBlocks === undefined ? "" : blockListSha256(vectorsBlocks),
    manifest,
    rankOf,
  };
}

function badIndexEntry(indexPath: string, position: number, rank: number, start: number, end: number): CorruptWordTableError {
  return new CorruptWordTableError({
    file: indexPath,
    reason: `its sorted words list rank ${rank} at ${position}, whose line in words.txt runs from byte ${start} to ${end}`,
  });
}

function isAscii(word: string): boolean {
  for (let index = 0; index < word.length; index += 1) if (word.charCodeAt(index) >= 0x80) return false;
  return true;
}

/**
 * How `bytes[start, end)` sorts against the ASCII `word`, as `Buffer#compare` answers for
 * `word`'s bytes: negative when it comes before, 0 when equal, positive when after.
 */
function asciiOrder(bytes: Uint8Array, start: number, end: number, word: string): number {
  const length = Math.min(end - start, word.length);
  for (let index = 0; index < length; index += 1) {
    const difference = (bytes[start + index] as number) - word.charCodeAt(index);
    if (difference !== 0) return difference;
  }
  return end - start - word.length;
}

function parseManifest(text: string, path: string): { manifest: WordTableManifest; vectorsBlocks: BlockedFileEntry | undefined } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CorruptWordTableError({ file: path, reason: "is not valid JSON", cause: error });
  }
  const bad = (reason: string): never => {
    throw new CorruptWordTableError({ file: path, reason });
  };
  if (parsed === null || typeof parsed !== "object") return bad("is not a JSON object");
  const record = parsed as Record<string, unknown>;
  const { formatVersion, wordCount, dimension, source, files } = record;
  if (formatVersion !== supportedFormatVersion) {
    return bad(`formatVersion is ${JSON.stringify(formatVersion)}, this version reads ${supportedFormatVersion}`);
  }
  const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value > 0;
  if (!isCount(wordCount)) return bad(`wordCount must be a positive integer (got ${JSON.stringify(wordCount)})`);
  if (!isCount(dimension)) return bad(`dimension must be a positive integer (got ${JSON.stringify(dimension)})`);
  if (source === null || typeof source !== "object") return bad("source must be an object");
  const { name, version } = source as Record<string, unknown>;
  if (typeof name !== "string" || typeof version !== "string") return bad("source.name and source.version must be strings");
  const checked = checkFileEntries(files, bad);
  const vectorsBlocks = blockedEntry((files as Record<string, unknown>)[vectorsFile], bad);
  return { manifest: { formatVersion, wordCount, dimension, source: { name, version }, files: checked }, vectorsBlocks };
}
