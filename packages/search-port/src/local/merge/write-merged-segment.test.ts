import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { strideFor } from "../dense/dense-matrix.js";
import { segmentManifest } from "../format/segmented-manifest.js";
import type { SegmentEntry } from "../format/segmented-manifest.js";
import { loadLazyGeneration } from "../reader/load-lazy-generation.js";
import { composeSnapshot } from "../segments/compose-snapshot.js";
import type { SegmentPart } from "../segments/segment-part.js";
import { dimension, randomSegments } from "../test/composed-snapshot-test-fixtures.js";
import { directory, useIndexFolder } from "../test/local-port-test-fixtures.js";
import { random } from "../test/seeded-random-test-fixtures.js";
import { sharedManifestFields } from "../writer/prepare-commit.js";
import { writeSegment } from "../writer/write-segment.js";
import { writeMergedSegment } from "./write-merged-segment.js";

useIndexFolder();

const embedder = { id: "test/hash", version: "1", dimension };

type Part = SegmentPart & { entry?: SegmentEntry | undefined };

/** Writes `part`'s records as a segment of their own and opens it from its files, as a writer's flushed or committed segment is. */
async function written(part: SegmentPart, name: string, created: string[]): Promise<Part> {
  const { entry } = await writeSegment(directory, 1, name, part.snapshot, created);
  const shared = sharedManifestFields(1, "source", part.snapshot.vectors === undefined ? null : embedder);
  const snapshot = loadLazyGeneration(directory, segmentManifest({ ...shared, segments: [entry] }, 0), true, { postingsCacheBytes: 0 });
  return { entry, snapshot, deleted: part.deleted };
}

/** Every file of a written segment as its bytes, by kind, and its entry without the file names. */
function segmentFiles(entry: SegmentEntry): { bytes: Record<string, Buffer>; entry: unknown } {
  const bytes: Record<string, Buffer> = {};
  const files: Record<string, unknown> = {};
  for (const [kind, file] of Object.entries(entry.files)) {
    if (file === undefined) continue;
    bytes[kind] = readFileSync(join(directory, file.name));
    const { name: _, ...rest } = file;
    files[kind] = rest;
  }
  return { bytes, entry: { ...entry, files } };
}

describe("writeMergedSegment", () => {
  it("issue 36 item 3: a streamed merge writes the very files a merge composed in memory writes, byte for byte (random segments, files and memory, deletions)", async () => {
    let compared = 0;
    for (let seed = 1; seed <= 40; seed += 1) {
      const { parts } = randomSegments(seed);
      const next = random(seed * 7919);
      const created: string[] = [];
      const run: Part[] = [];
      for (const [at, part] of parts.entries()) run.push(next() < 0.7 ? await written(part, `source${seed}-${at}`, created) : part);
      const expected = await writeSegment(directory, 2, `expected${seed}`, composeSnapshot(run), created);
      const actual = await writeMergedSegment(directory, 2, `actual${seed}`, run, strideFor(dimension), created);
      const want = segmentFiles(expected.entry);
      const got = segmentFiles(actual.entry);
      expect(Object.keys(got.bytes), `seed ${seed}`).toEqual(Object.keys(want.bytes));
      for (const kind of Object.keys(want.bytes))
        expect(got.bytes[kind]?.equals(want.bytes[kind] as Buffer), `seed ${seed}: ${kind}`).toBe(true);
      expect(got.entry, `seed ${seed}`).toEqual(want.entry);
      expect([...actual.contentOffsets]).toEqual([...expected.contentOffsets]);
      compared += run.some((part) => part.entry !== undefined) && expected.entry.chunks > 0 ? 1 : 0;
      for (const part of run) part.snapshot.records.file?.close();
    }
    // Most seeds merge written segments that hold records: the comparison is not empty-handed.
    expect(compared).toBeGreaterThan(25);
  });
});
