import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SegmentedManifest } from "../format/segmented-manifest.js";
import { postingsLayout } from "../lexical/file-lexicon.js";
import type { LocalSearchPortOptions } from "../port/local-search-port-options.js";
import { directory, hashEmbeddings, open, useIndexFolder } from "../test/local-port-test-fixtures.js";
import { recomputeChecksums } from "../test/recompute-checksums.js";
import { segmentsWithDeletes } from "../test/segments-with-deletes-test-fixtures.js";

useIndexFolder();

/** Rewrites a file of segment `at` through `change` and makes every checksum agree with it: content wrong, not damaged. */
function rewrite(
  manifest: SegmentedManifest,
  at: number,
  kind: "postings" | "terms" | "vectors",
  change: (bytes: Buffer) => Buffer | undefined,
): void {
  const name = manifest.segments[at]?.files[kind]?.name as string;
  const bytes = readFileSync(join(directory, name));
  writeFileSync(join(directory, name), change(bytes) ?? bytes);
  recomputeChecksums(directory);
}

/** A forced merge of the index is refused with `pattern`, and the committed manifest is left as it was. */
async function expectMergeRefused(pattern: RegExp, options: Partial<LocalSearchPortOptions> = {}): Promise<void> {
  const before = readFileSync(join(directory, "manifest.json"), "utf8");
  const writer = await open({ mode: "write", ...options });
  await expect(writer.optimize()).rejects.toThrow(pattern);
  expect(readFileSync(join(directory, "manifest.json"), "utf8")).toBe(before);
}

describe("issue 36 item 2: a streamed merge refuses a segment whose tables mislead it, instead of copying them into a merged segment", () => {
  it("issue 36 item 2: term starts that go back are refused, naming the postings file", async () => {
    const manifest = await segmentsWithDeletes();
    const { postings } = manifest.segments[0] as SegmentedManifest["segments"][number];
    // Term 0 then claims every posting, and term 1 ends before it starts.
    rewrite(manifest, 0, "postings", (bytes) => {
      bytes.writeUInt32LE(postings, 4);
      return undefined;
    });
    await expectMergeRefused(/postings\.bin has term starts that go back at term 1/);
  });

  it.each([
    [0, "with deletions"],
    [1, "without deletions"],
  ])("issue 36 item 2: a posting slot past its segment's records is refused (segment %i, %s)", async (at) => {
    const manifest = await segmentsWithDeletes();
    const segment = manifest.segments[at] as SegmentedManifest["segments"][number];
    const { slotsAt } = postingsLayout({ terms: segment.terms, postings: segment.postings, chunks: segment.chunks, totalLength: 0 });
    rewrite(manifest, at, "postings", (bytes) => {
      bytes.writeUInt32LE(segment.chunks + 2, slotsAt + 4 * (segment.postings - 1));
      return undefined;
    });
    await expectMergeRefused(
      new RegExp(`postings\\.bin has posting slot ${segment.chunks + 2} out of order or past its ${segment.chunks} records`),
    );
  });

  it("issue 36 item 2: terms out of order are refused, naming the terms file", async () => {
    const manifest = await segmentsWithDeletes();
    // word0 ... word4 in reverse: the same bytes per term, so the term ends still agree.
    rewrite(manifest, 0, "terms", (bytes) => {
      const text = bytes.toString("utf8");
      const words = ["word0", "word1", "word2", "word3", "word4"];
      const reversed = text.replace(/word[0-4]/g, (word) => words[4 - words.indexOf(word)] as string);
      expect(reversed).not.toBe(text);
      bytes.write(reversed, 0, "utf8");
      return undefined;
    });
    await expectMergeRefused(/terms\.txt does not hold its terms in order at term \d/);
  });

  it("issue 36 item 2: a vectors file whose size gives rows of another size than the index's is refused, naming it", async () => {
    const embeddings = hashEmbeddings();
    const manifest = await segmentsWithDeletes({ embeddings });
    const { chunks } = manifest.segments[0] as SegmentedManifest["segments"][number];
    // As many bytes more as 16 more per row: rows of a whole other size, not a torn file.
    rewrite(manifest, 0, "vectors", (bytes) => Buffer.concat([bytes, Buffer.alloc(16 * chunks)]));
    await expectMergeRefused(/vectors\.bin has \d+ bytes, expected \d+/, { embeddings });
  });
});
