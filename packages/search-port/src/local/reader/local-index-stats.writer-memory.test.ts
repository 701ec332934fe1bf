import { afterEach, describe, expect, it, vi } from "vitest";
import { FileKeys } from "../format/keys-file.js";
import { openLocalSearchPortWithHooks } from "../open-local-search-port.js";
import { SegmentedKeys } from "../segments/segmented-keys.js";
import { directory, hashEmbeddings, useIndexFolder } from "../test/local-port-test-fixtures.js";

useIndexFolder();
afterEach(() => {
  vi.restoreAllMocks();
});

describe("issue 36 (writer memory, review): a writer's stats() reads no segment's ids whole", () => {
  it("counts chunks and documents of a reopened writer of many segments, with replacements and deletions pending, without keeping every record id", async () => {
    const open = () =>
      openLocalSearchPortWithHooks({ directory, mode: "write", minScore: 0, embeddings: hashEmbeddings() }, { flushRecords: 5 });
    const first = await open();
    const batch = Array.from({ length: 40 }, (_, index) => ({
      id: `r${index}`,
      content: `record ${index}`,
      metadata: index % 4 === 3 ? {} : { docId: `doc${index % 6}` },
    }));
    for (let from = 0; from < batch.length; from += 5) await first.upsert(batch.slice(from, from + 5));
    await first.commit();
    await first.close();
    const writer = await open();
    const fileArrays = vi.spyOn(FileKeys.prototype, "arrays");
    const composedArrays = vi.spyOn(SegmentedKeys.prototype, "arrays");
    // 30 with a document id over doc0..doc5, 10 without: 16 documents.
    expect(writer.stats()).toMatchObject({ chunks: 40, documents: 16 });
    await writer.upsert([{ id: "r0", content: "again", metadata: { docId: "doc9" } }]);
    expect(await writer.deleteDocuments(["doc1"])).toBe(4);
    // r0 left doc0 (which keeps others) for doc9; doc1 held r1, r13, r25, r37.
    expect(writer.stats()).toMatchObject({ chunks: 36, documents: 16 });
    expect(fileArrays).not.toHaveBeenCalled();
    expect(composedArrays).not.toHaveBeenCalled();
    await writer.close();
    expect(writer.stats()).toMatchObject({ chunks: 0, documents: 0 });
  });
});
