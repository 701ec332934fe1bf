// The segments bench's own helpers (issue 36, the targets table): what counts as written into a
// folder, and edits that each rewrite a document of their own. Run: node --test bench/index-peers/
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, renameSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { editedChunk, editedRow, withEdits } from "./edits.mjs";
import { folderState, processWriteBytes, writtenBetween } from "./folder-writes.mjs";

test("issue 36 bench: writtenBetween counts new and renamed-over files whole, growth, in-place rewrites, and lists removals", () => {
  const directory = mkdtempSync(join(tmpdir(), "segments-helpers-"));
  try {
    writeFileSync(join(directory, "kept.bin"), "x".repeat(100));
    writeFileSync(join(directory, "log.bin"), "x".repeat(100));
    writeFileSync(join(directory, "manifest.json"), "x".repeat(50));
    writeFileSync(join(directory, "rewritten.bin"), "x".repeat(30));
    writeFileSync(join(directory, "old.bin"), "x".repeat(70));
    const before = folderState(directory);
    appendFileSync(join(directory, "log.bin"), "y".repeat(25));
    writeFileSync(join(directory, "manifest.json.tmp"), "z".repeat(60));
    renameSync(join(directory, "manifest.json.tmp"), join(directory, "manifest.json"));
    writeFileSync(join(directory, "rewritten.bin"), "w".repeat(30));
    utimesSync(join(directory, "rewritten.bin"), new Date(), new Date(Date.now() + 5000));
    writeFileSync(join(directory, "segment-2.bin"), "s".repeat(40));
    unlinkSync(join(directory, "old.bin"));
    const written = writtenBetween(before, folderState(directory));
    const byPath = Object.fromEntries(written.files.map((file) => [file.path, file]));
    assert.deepEqual(byPath["log.bin"], { path: "log.bin", bytes: 25, how: "grown" });
    assert.deepEqual(byPath["manifest.json"], { path: "manifest.json", bytes: 60, how: "replaced" });
    assert.deepEqual(byPath["rewritten.bin"], { path: "rewritten.bin", bytes: 30, how: "rewritten" });
    assert.deepEqual(byPath["segment-2.bin"], { path: "segment-2.bin", bytes: 40, how: "new" });
    assert.equal(byPath["kept.bin"], undefined);
    assert.deepEqual(written.removed, ["old.bin"]);
    assert.equal(written.bytes, 25 + 60 + 30 + 40);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test("issue 36 bench: processWriteBytes grows by what this process writes (Linux)", { skip: processWriteBytes() === undefined }, () => {
  const directory = mkdtempSync(join(tmpdir(), "segments-helpers-"));
  try {
    const before = processWriteBytes();
    writeFileSync(join(directory, "file.bin"), Buffer.alloc(100_000));
    assert.ok(processWriteBytes() - before >= 100_000);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test("issue 36 bench: each edit rewrites a document of its own, keeping its id and title", () => {
  const chunks = Array.from({ length: 5183 * 2 }, (_, row) => ({
    id: `d${row}#chunk-0`,
    docId: `d${row}`,
    title: row % 2 === 0 ? `Title ${row}` : "",
    content: `content ${row}`,
    text: row % 2 === 0 ? `Title ${row}\ncontent ${row}` : `content ${row}`,
  }));
  const rows = new Set(Array.from({ length: 105 }, (_, n) => editedRow(n, chunks.length)));
  assert.equal(rows.size, 105);
  const edited = withEdits(chunks, 105);
  const changed = edited.filter((chunk, row) => chunk !== chunks[row]);
  assert.equal(changed.length, 105);
  const row = editedRow(3, chunks.length);
  assert.deepEqual(edited[row], editedChunk(chunks[row], 3));
  assert.equal(edited[row].id, chunks[row].id);
  assert.notEqual(edited[row].content, chunks[row].content);
  assert.equal(edited[row].text, chunks[row].title === "" ? edited[row].content : `${chunks[row].title}\n${edited[row].content}`);
  assert.throws(() => withEdits(chunks.slice(0, 3), 4), /4 edits need 4 documents, the index holds 3/);
});
