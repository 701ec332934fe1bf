import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import type { IndexManifest } from "../format/index-manifest.js";
import { readManifest } from "../format/read-manifest.js";
import { isSegmented, segmentManifest } from "../format/segmented-manifest.js";
import { composeSnapshot } from "../segments/compose-snapshot.js";
import { fileSlotOf, recordContent } from "../snapshot/index-snapshot.js";
import { build, directory, useIndexFolder } from "../test/local-port-test-fixtures.js";
import { loadLazyGeneration } from "./load-lazy-generation.js";

useIndexFolder();

function firstGeneration(): IndexManifest {
  const stored = readManifest(directory);
  if (stored === undefined) throw new Error("no manifest was written");
  return isSegmented(stored) ? segmentManifest(stored, 0) : stored;
}

const records: KnowledgeRecord[] = Array.from({ length: 120 }, (_, index) => ({
  id: `doc${index}#chunk-0`,
  content: `record number ${index} about topic ${index % 7}`,
  metadata: { docId: `doc${index}`, chunkIndex: 0 },
}));

describe("issue 36 item 5: an opened generation's records found slot by slot", () => {
  it("tells each slot's place in the files as its table does, and the hits' records through a composed snapshot are the same", async () => {
    await (await build(records)).close();
    const manifest = firstGeneration();
    const lazy = loadLazyGeneration(directory, manifest, false);
    const other = loadLazyGeneration(directory, manifest, false);
    const composed = composeSnapshot([
      { snapshot: lazy, deleted: Uint8Array.from({ length: lazy.count }, (_, slot) => (slot % 4 === 0 ? 1 : 0)) },
      { snapshot: other },
    ]);
    try {
      // Slot by slot first, before anything reads the table whole.
      const asked = [-1, 1.5, ...Array.from({ length: lazy.count + 1 }, (_, slot) => slot)].map((slot) => fileSlotOf(lazy.records, slot));
      const contents = Array.from({ length: composed.count }, (_, slot) => recordContent(composed.records, slot));
      const table = lazy.records.fileSlots;
      expect(asked).toEqual([-1, -1, ...Array.from({ length: lazy.count + 1 }, (_, slot) => table[slot] ?? -1)]);
      expect(table).toEqual(Int32Array.from({ length: lazy.count }, (_, slot) => slot));
      const live = records.filter((_, index) => index % 4 !== 0).concat(records);
      expect(contents).toEqual(live.map((record) => record.content));
    } finally {
      lazy.records.file?.close();
      other.records.file?.close();
    }
  });
});
