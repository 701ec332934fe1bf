import { describe, expect, it, vi } from "vitest";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import type { StoredManifest } from "../format/segmented-manifest.js";
import { readManifest } from "../format/read-manifest.js";
import { readLocalPortSettings } from "../port/read-local-port-settings.js";
import { openCommittedIndex } from "./open-committed-index.js";
import { build, directory, useIndexFolder } from "../test/local-port-test-fixtures.js";

/** The manifest the next read returns instead of the one on disk (once), as if read just before a writer committed. */
const stale: { manifest: StoredManifest | undefined } = { manifest: undefined };

vi.mock("../format/read-manifest.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../format/read-manifest.js")>();
  return {
    readManifest: (folder: string) => {
      const given = stale.manifest;
      stale.manifest = undefined;
      return given ?? actual.readManifest(folder);
    },
  };
});

useIndexFolder();

function documents(count: number, prefix: string, version = 1): KnowledgeRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `${prefix}${index}#chunk-0`,
    content: `alpha beta word${index % 5} v${version}`,
    metadata: { docId: `${prefix}${index}` },
  }));
}

describe("issue 36 item 8: a reader opening while a writer commits", () => {
  it("issue 36 item 8: a deletes file removed by a newer commit after the manifest was read makes the reader read the manifest again, not refuse the index", async () => {
    const writer = await build(documents(12, "a"));
    await writer.deleteDocuments(["a3"]);
    await writer.commit();
    const before = readManifest(directory);
    expect(before?.files).toHaveProperty("deletes");
    await writer.deleteDocuments(["a4"]);
    await writer.commit();
    await writer.close();
    stale.manifest = before;
    const opened = openCommittedIndex(readLocalPortSettings({ directory }));
    try {
      expect(opened?.snapshot.count).toBe(10);
      expect(opened?.manifest.generation).toBe(3);
    } finally {
      opened?.snapshot.records.file?.close();
    }
  });
});
