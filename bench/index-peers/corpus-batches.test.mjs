// The build's data feed (issue 36 item 3): batches made on the fly, each with its vectors read
// from the cache file at its offset, the edits applied. Run: node --test bench/index-peers/
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { chunkBatches, replicatedChunks } from "./corpus.mjs";
import { editedRow, withEdits } from "./edits.mjs";

const corpus = Array.from({ length: 7 }, (_, at) => ({ _id: `d${at}`, title: at % 3 === 0 ? "" : `T${at}`, text: `w${at} x y z q r s t` }));
const dimension = 3;

function withVectorFile(rows, body) {
  const directory = mkdtempSync(join(tmpdir(), "corpus-batches-"));
  try {
    const path = join(directory, "vectors.f32");
    writeFileSync(path, new Uint8Array(Float32Array.from({ length: rows * dimension }, (_, at) => at).buffer));
    body(path);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

test("issue 36 item 3 bench: chunkBatches gives every chunk once, edited, with its own row's vector, in batches", () => {
  const replicas = 3;
  const total = corpus.length * replicas;
  withVectorFile(total, (vectorsPath) => {
    const timing = { seconds: 0 };
    const batches = [...chunkBatches({ corpus, replicas, edits: 4, vectorsPath, dimension, batchChunks: 5, timing })];
    assert.ok(timing.seconds > 0, "the time spent making the batches is counted");
    assert.ok(Number.isFinite(timing.cpuSeconds) && timing.cpuSeconds >= 0, "the CPU time spent making the batches is counted");
    assert.deepEqual(
      batches.map((batch) => batch.chunks.length),
      [5, 5, 5, 5, 1],
    );
    const chunks = batches.flatMap((batch) => batch.chunks);
    assert.deepEqual(chunks, withEdits([...replicatedChunks(corpus, replicas)], 4));
    assert.notDeepEqual(chunks[editedRow(2, total)], [...replicatedChunks(corpus, replicas)][editedRow(2, total)]);
    for (const { start, chunks: batch, floats } of batches) {
      assert.equal(floats.length, batch.length * dimension);
      assert.equal(floats[0], start * dimension);
      assert.equal(floats.at(-1), (start + batch.length) * dimension - 1);
    }
  });
});

test("issue 36 item 3 bench: chunkBatches refuses a vector file that does not hold one vector per chunk", () => {
  withVectorFile(corpus.length * 2 - 1, (vectorsPath) => {
    assert.throws(
      () => [...chunkBatches({ corpus, replicas: 2, edits: 0, vectorsPath, dimension, batchChunks: 4 })],
      /holds 13 vectors, not one per chunk \(14\)/,
    );
  });
});

test("issue 36 10M bench: chunkBatches with vectorReplicas reuses the smaller file's rows in turn, across its end", () => {
  const replicas = 4;
  withVectorFile(corpus.length * 2, (vectorsPath) => {
    const batches = [...chunkBatches({ corpus, replicas, edits: 0, vectorsPath, dimension, batchChunks: 5, vectorReplicas: 2 })];
    const rows = corpus.length * 2;
    for (const { start, chunks: batch, floats } of batches) {
      batch.forEach((_, offset) => {
        const row = (start + offset) % rows;
        assert.deepEqual([...floats.subarray(offset * dimension, (offset + 1) * dimension)], [row * 3, row * 3 + 1, row * 3 + 2]);
      });
    }
    assert.equal(
      batches.reduce((sum, batch) => sum + batch.chunks.length, 0),
      corpus.length * replicas,
    );
    assert.throws(
      () => [...chunkBatches({ corpus, replicas: 3, edits: 0, vectorsPath, dimension, batchChunks: 5, vectorReplicas: 2 })],
      /positive divisor of replicas \(3\), got 2/,
    );
  });
});
