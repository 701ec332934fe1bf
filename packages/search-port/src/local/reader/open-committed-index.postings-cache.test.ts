import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import { readLocalPortSettings } from "../port/read-local-port-settings.js";
import type { SegmentedLexicon } from "../segments/segmented-lexicon.js";
import { build, directory, useIndexFolder } from "../test/local-port-test-fixtures.js";
import { openCommittedIndex } from "./open-committed-index.js";

useIndexFolder();

function documents(count: number, prefix: string): KnowledgeRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `${prefix}${index}#chunk-0`,
    content: `alpha beta word${index % 5}`,
    metadata: { docId: `${prefix}${index}` },
  }));
}

/** Bytes the composed lexicon of a reader opened with `postingsCacheBytes` keeps after looking up two terms. */
function keptBytes(postingsCacheBytes: number | undefined): number {
  const settings = readLocalPortSettings(postingsCacheBytes === undefined ? { directory } : { directory, postingsCacheBytes });
  const opened = openCommittedIndex(settings);
  try {
    const lexicon = opened?.snapshot.lexicon as SegmentedLexicon;
    expect(opened?.segments).toHaveLength(2);
    for (const term of ["alpha", "beta"]) lexicon.postings(lexicon.find(term));
    lexicon.beginSearch();
    return lexicon.cachedBytes;
  } finally {
    opened?.snapshot.records.file?.close();
  }
}

describe("issue 36 item 1: a reader's composed lexicon keeps postings within postingsCacheBytes", () => {
  it("issue 36 item 1: none with postingsCacheBytes 0, some by default", async () => {
    const writer = await build(documents(30, "a"));
    await writer.upsert(documents(5, "b"));
    await writer.commit();
    await writer.close();
    expect(keptBytes(undefined)).toBeGreaterThan(0);
    expect(keptBytes(0)).toBe(0);
  });
});
