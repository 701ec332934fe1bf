import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { ingestFolder } from "@lookup-knowledge/ingest";
import { EmbedderMismatchError, openLocalSearchPort } from "@lookup-knowledge/search-port/local";
import { afterEach, describe, expect, it } from "vitest";
import { ingestIntoLocalIndex } from "./ingest-into-local-index.js";
import { localIndexDirectory } from "./local-data-folder.js";
import { openLocalKnowledgeBase } from "./open-local-knowledge-base.js";
import { exampleKnowledgeBase } from "./test/example-knowledge-base.js";

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** A data folder as an earlier release left it: the example base ingested with the offline embedder's version 1. */
async function ingestedByAnEarlierRelease(withManifest = true): Promise<string> {
  const dataDirectory = await mkdtemp(join(tmpdir(), "earlier-release-"));
  folders.push(dataDirectory);
  const writer = await openLocalSearchPort({
    directory: localIndexDirectory(dataDirectory),
    embeddings: createOfflineEmbeddings({ chineseGlosses: false }),
    mode: "write",
  });
  try {
    if (withManifest) await ingestFolder({ root: exampleKnowledgeBase, dataDirectory, writer });
    else {
      await writer.upsert([{ id: "note#0", content: "A note written through the port, not by an ingest.", metadata: { docId: "note" } }]);
      await writer.commit();
    }
  } finally {
    await writer.close();
  }
  return dataDirectory;
}

describe("ingestIntoLocalIndex: an index of an earlier embedder version", () => {
  it("rebuilds it with this version's embedder, every document written again", async () => {
    const dataDirectory = await ingestedByAnEarlierRelease();
    // Lookups need the rebuild: the index's vectors are not this embedder's.
    await expect(openLocalKnowledgeBase({ dataDirectory })).rejects.toSatisfy((error: unknown) => EmbedderMismatchError.isInstance(error));
    const report = await ingestIntoLocalIndex({ root: exampleKnowledgeBase, dataDirectory });
    expect(report.unchanged).toBe(0);
    expect(report.parsed).toBe(report.files - report.noContent.length - report.failed.length);
    expect(report.chunksWritten).toBeGreaterThan(100);
    const reader = await openLocalSearchPort({ directory: localIndexDirectory(dataDirectory), embeddings: createOfflineEmbeddings() });
    try {
      expect(reader.stats()).toMatchObject({ chunks: report.chunksWritten, embedder: createOfflineEmbeddings().identity });
    } finally {
      await reader.close();
    }
    const knowledgeBase = await openLocalKnowledgeBase({ dataDirectory });
    try {
      expect((await knowledgeBase.retriever.lookup("Who can issue a refund for a paid invoice?")).found).toBe(true);
    } finally {
      await knowledgeBase.close();
    }
    // The next ingest finds nothing to do.
    expect((await ingestIntoLocalIndex({ root: exampleKnowledgeBase, dataDirectory })).parsed).toBe(0);
  });

  it("refuses an index that no ingest listed, so nothing it holds is lost", async () => {
    const dataDirectory = await ingestedByAnEarlierRelease(false);
    await expect(ingestIntoLocalIndex({ root: exampleKnowledgeBase, dataDirectory })).rejects.toSatisfy((error: unknown) =>
      EmbedderMismatchError.isInstance(error),
    );
    const reader = await openLocalSearchPort({
      directory: localIndexDirectory(dataDirectory),
      embeddings: createOfflineEmbeddings({ chineseGlosses: false }),
    });
    try {
      expect(reader.stats().chunks).toBe(1);
    } finally {
      await reader.close();
    }
  });
});
