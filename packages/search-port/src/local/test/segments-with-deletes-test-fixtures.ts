import { expect } from "vitest";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import { readManifest } from "../format/read-manifest.js";
import type { SegmentedManifest } from "../format/segmented-manifest.js";
import type { LocalSearchPortOptions } from "../port/local-search-port-options.js";
import { build, directory } from "./local-port-test-fixtures.js";

/** `count` one-chunk documents `<prefix><n>` of three words, five of them distinct over the set. */
export function shortDocuments(count: number, prefix: string): KnowledgeRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `${prefix}${index}#chunk-0`,
    content: `alpha beta word${index % 5}`,
    metadata: { docId: `${prefix}${index}` },
  }));
}

/**
 * Commits two segments in `directory`, of 12 and 3 records, the first with two deleted
 * (listed in a deletes file), with `options` (an embedder, say); the writer is closed.
 */
export async function segmentsWithDeletes(options: Partial<LocalSearchPortOptions> = {}): Promise<SegmentedManifest> {
  const writer = await build(shortDocuments(12, "a"), options);
  await writer.deleteDocuments(["a3", "a7"]);
  await writer.upsert(shortDocuments(3, "b"));
  await writer.commit();
  await writer.close();
  const manifest = readManifest(directory) as SegmentedManifest;
  expect(manifest.segments.map((segment) => [segment.chunks, segment.deleted])).toEqual([
    [12, 2],
    [3, 0],
  ]);
  return manifest;
}
