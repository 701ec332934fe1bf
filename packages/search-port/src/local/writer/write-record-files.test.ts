import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileRecords } from "../format/file-records.js";
import type { ByteSource, RecordOffsets } from "../format/file-records.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { GenerationFiles } from "./generation-files.js";
import { writeRecordFiles } from "./write-record-files.js";

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "write-record-files-"));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

function memorySource(bytes: Buffer): ByteSource {
  return { read: (position, length) => new Uint8Array(bytes.subarray(position, position + length)), close: () => {} };
}

/** Committed records in files, whose offsets count the reads made of them (one per `offset`, one per `run`). */
function committedRecords(contents: string[], reads: { single: number; runs: number }): FileRecords {
  const content = Buffer.from(contents.join(""), "utf8");
  const metadataTexts = contents.map((_, slot) => `{"n":${slot}},`);
  const metadata = Buffer.from(metadataTexts.join(""), "utf8");
  const starts = (pieces: string[]) => {
    const table = new Float64Array(pieces.length + 1);
    pieces.forEach((piece, slot) => {
      table[slot + 1] = (table[slot] as number) + Buffer.byteLength(piece, "utf8");
    });
    return table;
  };
  const table = { content: starts(contents), metadata: starts(metadataTexts) };
  const offsets: RecordOffsets = {
    content: (slot) => {
      reads.single += 1;
      return table.content[slot] as number;
    },
    metadata: (slot) => {
      reads.single += 1;
      return table.metadata[slot] as number;
    },
    run: (kind, from, to) => {
      reads.runs += 1;
      return table[kind].slice(from, to + 1);
    },
  };
  return new FileRecords(directory, {
    content: memorySource(content),
    metadata: memorySource(metadata),
    contentName: "content",
    metadataName: "metadata",
    count: contents.length,
    offsets,
    metadataSha256: "",
  });
}

describe("writeRecordFiles (issue 36 item 4: a first build's merge copies its flushed segments' records)", () => {
  it("reads a run's offsets in one read per file, not one per record, and writes the same bytes and offsets", async () => {
    const contents = Array.from({ length: 1100 }, (_, slot) => `record ${slot} ${"ü".repeat(slot % 7)}`);
    const reads = { single: 0, runs: 0 };
    const file = committedRecords(contents, reads);
    // Slots 0-599 copied from the file as one run, 600 held in memory, 601-999 another run from slot 700 on.
    const fileSlots = new Int32Array(1000).map((_, slot) => (slot < 600 ? slot : slot === 600 ? -1 : slot + 99));
    const memory: Array<{ content: string; metadataText: string } | undefined> = [];
    memory[600] = { content: "held in memory", metadataText: '{"held":true}' };
    const snapshot = { count: 1000, records: { file, fileSlots, memory } } as unknown as IndexSnapshot;
    const files = new GenerationFiles(directory, 1, "c1", []);
    const offsets = await writeRecordFiles(files, snapshot);
    const expected = (slot: number): string =>
      (slot < 600 ? contents[slot] : slot === 600 ? "held in memory" : contents[slot + 99]) as string;
    const written = readFileSync(join(directory, files.entries.content?.name as string), "utf8");
    expect(written).toBe(Array.from({ length: 1000 }, (_, slot) => expected(slot)).join(""));
    for (const slot of [0, 1, 599, 600, 601, 999]) {
      const bytes = Buffer.from(written, "utf8").subarray(offsets.contentOffsets[slot], offsets.contentOffsets[slot + 1]);
      expect(bytes.toString("utf8"), `slot ${slot}`).toBe(expected(slot));
    }
    const metadataText = readFileSync(join(directory, files.entries.metadata?.name as string), "utf8");
    expect(metadataText.slice(offsets.metadataOffsets[601], offsets.metadataOffsets[602])).toBe('{"n":700},');
    expect(metadataText.slice(offsets.metadataOffsets[600], offsets.metadataOffsets[601])).toBe('{"held":true},');
    // Two runs, two files each; the copy itself reads each run's first and end offset.
    expect(reads.runs).toBe(4);
    expect(reads.single).toBeLessThanOrEqual(8);
  });
});
