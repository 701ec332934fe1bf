import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CorruptWordTableError } from "./corrupt-word-table-error.js";
import { loadGlossTable } from "./load-gloss-table.js";
import { loadWordTable } from "./load-word-table.js";

const dataDirectory = fileURLToPath(new URL("../data/", import.meta.url));
const glossFiles = ["gloss-table.json", "glosses.bin", "gloss-words.txt", "traditional-characters.txt"];

const temporaryDirectories: string[] = [];
afterEach(() => {
  for (const directory of temporaryDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function copyOfData(): string {
  const directory = mkdtempSync(join(tmpdir(), "gloss-table-"));
  temporaryDirectories.push(directory);
  for (const file of glossFiles) copyFileSync(join(dataDirectory, file), join(directory, file));
  return directory;
}

function loadError(directory: string): CorruptWordTableError {
  try {
    loadGlossTable({ directory });
  } catch (error) {
    expect(error).toBeInstanceOf(CorruptWordTableError);
    return error as CorruptWordTableError;
  }
  throw new Error("expected the load to fail");
}

describe("loadGlossTable", () => {
  it("gives a Chinese word the word-table ranks of its English definition", () => {
    const glosses = loadGlossTable();
    const words = loadWordTable();
    expect(glosses.headwordCount).toBeGreaterThan(120_000);
    const english = (headword: string) => Array.from(glosses.ranksOf(headword) ?? [], (rank) => words.words[rank]);
    expect(english("数据库")).toContain("database");
    expect(english("加密")).toContain("encryption");
    expect(english("網關")).toEqual(english("网关")); // traditional and simplified headwords
    expect(glosses.ranksOf("the")).toBeUndefined();
    expect(glosses.ranksOf("")).toBeUndefined();
    expect(loadGlossTable()).toBe(glosses); // read once per folder
  });

  it("turns traditional characters into simplified ones, and leaves everything else as it is", () => {
    const glosses = loadGlossTable();
    expect(glosses.simplified("數據庫連接池耗盡")).toBe("数据库连接池耗尽");
    expect(glosses.simplified("分布式事务 and TiDB")).toBe("分布式事务 and TiDB");
    expect(glosses.simplified("")).toBe("");
    // Characters before the first change and outside the BMP are kept whole.
    expect(glosses.simplified("分布式數據庫𠀀測試")).toBe("分布式数据库𠀀测试");
  });

  it("refuses a changed file, naming it", () => {
    const directory = copyOfData();
    const bytes = readFileSync(join(directory, "glosses.bin"));
    bytes[100] = (bytes[100] as number) ^ 0x01;
    writeFileSync(join(directory, "glosses.bin"), bytes);
    const error = loadError(directory);
    expect(error.code).toBe("corrupt_word_table");
    expect(error.file).toBe(join(directory, "glosses.bin"));
    expect(error.message).toMatch(/SHA-256/);
  });

  it("refuses a missing file and a manifest it cannot read, naming the file", () => {
    const missing = copyOfData();
    unlinkSync(join(missing, "gloss-words.txt"));
    expect(loadError(missing).file).toBe(join(missing, "gloss-words.txt"));
    const noPairs = copyOfData();
    unlinkSync(join(noPairs, "traditional-characters.txt"));
    expect(loadError(noPairs).file).toBe(join(noPairs, "traditional-characters.txt"));
    const badJson = copyOfData();
    writeFileSync(join(badJson, "gloss-table.json"), "{ not json");
    expect(loadError(badJson).message).toMatch(/not valid JSON/);
    const otherFormat = copyOfData();
    const manifest = JSON.parse(readFileSync(join(otherFormat, "gloss-table.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(otherFormat, "gloss-table.json"), JSON.stringify({ ...manifest, formatVersion: 2 }));
    expect(loadError(otherFormat).message).toMatch(/formatVersion is 2/);
    const noWordTable = copyOfData();
    writeFileSync(join(noWordTable, "gloss-table.json"), JSON.stringify({ ...manifest, wordTable: {} }));
    expect(loadError(noWordTable).message).toMatch(/words\.txt/);
  });

  it("refuses counts that do not match the files", () => {
    const directory = copyOfData();
    const manifest = JSON.parse(readFileSync(join(directory, "gloss-table.json"), "utf8")) as { headwordCount: number };
    writeFileSync(join(directory, "gloss-table.json"), JSON.stringify({ ...manifest, headwordCount: manifest.headwordCount - 1 }));
    expect(loadError(directory).message).toMatch(/bytes where/);
  });
});

describe("loadGlossTable over a list not sorted by bytes (issue 36 item 5)", () => {
  /** A gloss table of `headwords` (each given the ranks `[index, index + 1]`), with its manifest's checksums. */
  function writeTable(headwords: readonly string[]): string {
    const directory = copyOfData();
    const rankCount = headwords.length * 2;
    const glosses = Buffer.alloc(16 + headwords.length + rankCount * 2);
    glosses.write("LKGL", 0, "latin1");
    glosses.writeUInt32LE(1, 4);
    glosses.writeUInt32LE(headwords.length, 8);
    glosses.writeUInt32LE(rankCount, 12);
    headwords.forEach((_, index) => {
      glosses[16 + index] = 2;
      glosses.writeUInt16LE(index, 16 + headwords.length + index * 4);
      glosses.writeUInt16LE(index + 1, 16 + headwords.length + index * 4 + 2);
    });
    const list = Buffer.from(`${headwords.join("\n")}\n`, "utf8");
    writeFileSync(join(directory, "glosses.bin"), glosses);
    writeFileSync(join(directory, "gloss-words.txt"), list);
    const manifestPath = join(directory, "gloss-table.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { files: Record<string, { bytes: number; sha256: string }> };
    const entry = (bytes: Buffer) => ({ bytes: bytes.byteLength, sha256: createHash("sha256").update(bytes).digest("hex") });
    manifest.files["glosses.bin"] = entry(glosses);
    manifest.files["gloss-words.txt"] = entry(list);
    writeFileSync(manifestPath, JSON.stringify({ ...manifest, headwordCount: headwords.length, rankCount }));
    return directory;
  }

  it("finds every headword of a list sorted by bytes and of one that is not, at the same ranks", () => {
    const words = ["数据", "Ａ", "𠀀", "库", "网关"];
    for (const order of [
      [...words].sort((left, right) => Buffer.compare(Buffer.from(left), Buffer.from(right))),
      [...words].sort(),
      words,
    ]) {
      const table = loadGlossTable({ directory: writeTable(order) });
      for (const [index, word] of order.entries())
        expect(Array.from(table.ranksOf(word) ?? []), `${order.join(",")}: ${word}`).toEqual([index, index + 1]);
      expect(table.ranksOf("数据库")).toBeUndefined();
      expect(table.ranksOf("")).toBeUndefined();
    }
  });

  it("refuses a list with a repeat or an empty line, naming the line", () => {
    expect(loadError(writeTable(["库", "数据", "库"])).message).toMatch(/line 3 \("库"\) is empty or a repeat/);
    expect(loadError(writeTable(["库", "", "数据"])).message).toMatch(/line 2 \(""\) is empty or a repeat/);
  });
});
