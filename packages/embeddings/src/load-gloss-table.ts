import { join } from "node:path";
import { CorruptWordTableError } from "./corrupt-word-table-error.js";
import { resolveDataDirectory } from "./load-word-table.js";
import { checkFileEntries, readBytes, readVerified } from "./read-verified-file.js";
import { readSortedLines } from "./sorted-lines.js";

/**
 * The Chinese gloss table that ships in `data/`: for each Chinese headword jieba can cut out
 * of a text, the ranks in the word table (`words.txt`) of the English words that define it
 * (from CC-CEDICT; see `scripts/build-gloss-table.mjs` and `NOTICE`).
 */
export interface GlossTable {
  readonly headwordCount: number;
  /** SHA-256 (hex) of `glosses.bin` and of `gloss-words.txt`, as recorded and verified. */
  readonly glossesSha256: string;
  readonly headwordsSha256: string;
  /** SHA-256 of the `words.txt` whose ranks the table holds. */
  readonly wordsSha256: string;
  /** SHA-256 (hex) of `traditional-characters.txt`, as recorded and verified. */
  readonly traditionalSha256: string;
  /** The word-table ranks of a headword's English words, in definition order, or `undefined` when the table does not hold it. */
  ranksOf(headword: string): Uint16Array | undefined;
  /** The text with each traditional character the table knows turned into its simplified form. */
  simplified(text: string): string;
}

const manifestFile = "gloss-table.json";
const glossesFile = "glosses.bin";
const headwordsFile = "gloss-words.txt";
const traditionalFile = "traditional-characters.txt";
const supportedFormatVersion = 1;
const magic = "LKGL";
const headerBytes = 16;

const cache = new Map<string, GlossTable>();

/**
 * Loads the gloss table synchronously (its files read whole, its headwords looked up in place), checking each file against the SHA-256
 * recorded in `gloss-table.json`; a mismatch, a missing file or a bad layout throws
 * `CorruptWordTableError` naming the file. Read once per folder and process.
 */
export function loadGlossTable(options: { directory?: string | URL } = {}): GlossTable {
  const directory = resolveDataDirectory(options.directory);
  const cached = cache.get(directory);
  if (cached !== undefined) return cached;
  const table = readGlossTable(directory);
  cache.set(directory, table);
  return table;
}

function readGlossTable(directory: string): GlossTable {
  const manifestPath = join(directory, manifestFile);
  const manifest = parseManifest(readBytes(manifestPath).toString("utf8"), manifestPath);
  const glossesPath = join(directory, glossesFile);
  const bytes = readVerified(glossesPath, manifest.files[glossesFile], manifestPath);
  const headwordsPath = join(directory, headwordsFile);
  const headwordBytes = readVerified(headwordsPath, manifest.files[headwordsFile], manifestPath);
  const traditionalPath = join(directory, traditionalFile);
  const simplifiedOf = readCharacterPairs(traditionalPath, readVerified(traditionalPath, manifest.files[traditionalFile], manifestPath));

  const { headwordCount, rankCount } = manifest;
  const corrupt = (file: string, reason: string) => new CorruptWordTableError({ file, reason });
  if (bytes.byteLength !== headerBytes + headwordCount + rankCount * 2) {
    throw corrupt(
      glossesPath,
      `${bytes.byteLength} bytes where ${headwordCount} headwords and ${rankCount} ranks need ${headerBytes + headwordCount + rankCount * 2}`,
    );
  }
  const header = new DataView(bytes.buffer, bytes.byteOffset, headerBytes);
  if (bytes.toString("latin1", 0, 4) !== magic || header.getUint32(4, true) !== manifest.formatVersion) {
    throw corrupt(glossesPath, `the header is not "${magic}" format ${manifest.formatVersion}`);
  }
  if (header.getUint32(8, true) !== headwordCount || header.getUint32(12, true) !== rankCount) {
    throw corrupt(glossesPath, `the header's counts differ from ${manifestFile}'s`);
  }
  // Each headword's first rank: its count is the byte after the header at its line number.
  const firstRanks = new Uint32Array(headwordCount + 1);
  for (let index = 0; index < headwordCount; index += 1) {
    const count = bytes[headerBytes + index] as number;
    if (count === 0) throw corrupt(headwordsPath, `line ${index + 1} has no ranks`);
    firstRanks[index + 1] = (firstRanks[index] as number) + count;
  }
  if (firstRanks[headwordCount] !== rankCount)
    throw corrupt(glossesPath, `the headwords take ${firstRanks[headwordCount]} ranks of ${rankCount}`);
  const rankView = new DataView(bytes.buffer, bytes.byteOffset + headerBytes + headwordCount, rankCount * 2);
  // Ranks are little-endian uint16 at an odd offset: a headword's are copied out when it is looked up.
  const ranksAt = (index: number): Uint16Array => {
    const start = firstRanks[index] as number;
    const ranks = new Uint16Array((firstRanks[index + 1] as number) - start);
    for (let at = 0; at < ranks.length; at += 1) ranks[at] = rankView.getUint16((start + at) * 2, true);
    return ranks;
  };
  // The shipped list is sorted: its headwords are found by binary search over its bytes, none
  // decoded at load (the load took 135-170 ms of CPU, most of it a Map of 130,000 decoded headwords).
  // A list not sorted by bytes is read whole into that Map, as before.
  const sorted = readSortedLines(headwordBytes, headwordCount);
  const indexOf =
    sorted !== undefined ? (headword: string) => sorted.indexOf(headword) : headwordMap(headwordBytes, headwordCount, headwordsPath);
  return {
    headwordCount,
    glossesSha256: manifest.files[glossesFile]?.sha256 ?? "",
    headwordsSha256: manifest.files[headwordsFile]?.sha256 ?? "",
    traditionalSha256: manifest.files[traditionalFile]?.sha256 ?? "",
    wordsSha256: manifest.wordsSha256,
    ranksOf: (headword) => {
      const index = indexOf(headword);
      return index < 0 ? undefined : ranksAt(index);
    },
    // Most text is simplified already: it is returned as it is, with no new string built.
    simplified: (value) => {
      let result: string | undefined;
      let offset = 0;
      for (const character of value) {
        const simple = simplifiedOf.get(character);
        if (simple !== undefined) result ??= value.slice(0, offset);
        if (result !== undefined) result += simple ?? character;
        offset += character.length;
      }
      return result ?? value;
    },
  };
}

/** The line number of each headword of a list read whole (one not sorted by bytes): empty lines and repeats are refused. */
function headwordMap(bytes: Buffer, headwordCount: number, path: string): (headword: string) => number {
  const text = bytes.toString("utf8");
  const headwords = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  if (headwords.length !== headwordCount) {
    throw new CorruptWordTableError({ file: path, reason: `${headwords.length} headwords where ${manifestFile} says ${headwordCount}` });
  }
  const lines = new Map<string, number>();
  headwords.forEach((headword, index) => {
    if (headword === "" || lines.has(headword)) {
      throw new CorruptWordTableError({ file: path, reason: `line ${index + 1} (${JSON.stringify(headword)}) is empty or a repeat` });
    }
    lines.set(headword, index);
  });
  return (headword) => lines.get(headword) ?? -1;
}

/** `traditional-characters.txt`: a traditional character and its simplified form per line. */
function readCharacterPairs(path: string, bytes: Buffer): Map<string, string> {
  const pairs = new Map<string, string>();
  const text = bytes.toString("utf8");
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  lines.forEach((line, index) => {
    const characters = Array.from(line);
    if (characters.length !== 2 || pairs.has(characters[0] as string)) {
      throw new CorruptWordTableError({
        file: path,
        reason: `line ${index + 1} (${JSON.stringify(line)}) is not a new character and its simplified form`,
      });
    }
    pairs.set(characters[0] as string, characters[1] as string);
  });
  return pairs;
}

interface GlossTableManifest {
  formatVersion: number;
  headwordCount: number;
  rankCount: number;
  wordsSha256: string;
  files: Record<string, { bytes: number; sha256: string }>;
}

function parseManifest(text: string, path: string): GlossTableManifest {
  const bad = (reason: string): never => {
    throw new CorruptWordTableError({ file: path, reason });
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CorruptWordTableError({ file: path, reason: "is not valid JSON", cause: error });
  }
  if (parsed === null || typeof parsed !== "object") return bad("is not a JSON object");
  const { formatVersion, headwordCount, rankCount, wordTable, files } = parsed as Record<string, unknown>;
  if (formatVersion !== supportedFormatVersion) {
    return bad(`formatVersion is ${JSON.stringify(formatVersion)}, this version reads ${supportedFormatVersion}`);
  }
  const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value > 0;
  if (!isCount(headwordCount)) return bad(`headwordCount must be a positive integer (got ${JSON.stringify(headwordCount)})`);
  if (!isCount(rankCount)) return bad(`rankCount must be a positive integer (got ${JSON.stringify(rankCount)})`);
  const wordsSha256 = (wordTable as Record<string, unknown> | null | undefined)?.["words.txt"];
  if (typeof wordsSha256 !== "string" || !/^[0-9a-f]{64}$/.test(wordsSha256)) return bad(`wordTable["words.txt"] must be a hex SHA-256`);
  return { formatVersion, headwordCount, rankCount, wordsSha256, files: checkFileEntries(files, bad) };
}
