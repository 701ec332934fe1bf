import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SegmentedManifest } from "./format/segmented-manifest.js";
import { directory, open, useIndexFolder } from "./test/local-port-test-fixtures.js";
import { recomputeChecksums } from "./test/recompute-checksums.js";
import { segmentsWithDeletes } from "./test/segments-with-deletes-test-fixtures.js";

useIndexFolder();

function editManifest(change: (manifest: SegmentedManifest) => void): void {
  recomputeChecksums(directory, (manifest) => change(manifest as unknown as SegmentedManifest));
}

/** Writes `slots` as the deletes file and makes the manifest's entry (and checksum) agree with it. */
function rewriteDeletes(slots: number[]): void {
  const bytes = Buffer.from(new Uint32Array(slots).buffer);
  editManifest((manifest) => {
    const entry = manifest.files.deletes;
    if (entry === undefined) throw new Error("no deletes file");
    writeFileSync(join(directory, entry.name), bytes);
    entry.bytes = bytes.length;
    entry.sha256 = createHash("sha256").update(bytes).digest("hex");
  });
}

describe("issue 36 item 8: a format-7 manifest or deletes file that does not add up is refused, naming what is wrong", () => {
  it("issue 36 item 8: a segment listed twice is refused, not searched twice", async () => {
    await segmentsWithDeletes();
    editManifest((manifest) => {
      const second = manifest.segments[1] as SegmentedManifest["segments"][number];
      manifest.segments.push(second);
      manifest.chunks += second.chunks;
    });
    await expect(open()).rejects.toThrow(/manifest\.json is inconsistent: \S+\.keys\.bin is listed by segment 1 and again by segment 2/);
  });

  it("issue 36 item 8: chunks that are not the segments' live records, or a segment deleting more than it holds, are refused", async () => {
    await segmentsWithDeletes();
    const original = readFileSync(join(directory, "manifest.json"), "utf8");
    editManifest((manifest) => {
      manifest.chunks += 5;
    });
    await expect(open()).rejects.toThrow(/inconsistent: it counts 18 chunks but its segments hold 13 live records/);
    writeFileSync(join(directory, "manifest.json"), original);
    editManifest((manifest) => {
      manifest.segments = [];
      delete manifest.files.deletes;
    });
    await expect(open()).rejects.toThrow(/inconsistent: it counts 13 chunks but its segments hold 0 live records/);
    writeFileSync(join(directory, "manifest.json"), original);
    editManifest((manifest) => {
      (manifest.segments[1] as SegmentedManifest["segments"][number]).deleted = 4;
    });
    await expect(open()).rejects.toThrow(/inconsistent: segment 1 counts 4 deleted records of its 3/);
    writeFileSync(join(directory, "manifest.json"), original);
    editManifest((manifest) => {
      manifest.documents = 40;
    });
    await expect(open()).rejects.toThrow(/inconsistent: it counts 40 documents in 13 chunks/);
  });

  it("issue 36 item 8: a deletes file listing slots out of order, twice or past the segment is refused", async () => {
    await segmentsWithDeletes();
    const original = readFileSync(join(directory, "manifest.json"), "utf8");
    for (const [slots, shown] of [
      [[7, 3], "slot 3 of segment 0 out of order"],
      [[3, 3], "slot 3 of segment 0 out of order"],
      [[3, 12], "slot 12 of segment 0 out of order or past its end"],
    ] as const) {
      writeFileSync(join(directory, "manifest.json"), original);
      rewriteDeletes([...slots]);
      await expect(open(), String(slots)).rejects.toThrow(new RegExp(shown));
    }
    writeFileSync(join(directory, "manifest.json"), original);
    rewriteDeletes([3]);
    await expect(open()).rejects.toThrow(/does not hold the 2 deleted slots the manifest counts/);
  });
});
