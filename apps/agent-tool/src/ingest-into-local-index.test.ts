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

const note = { id: "note#0", content: "A note written through the port, not by an ingest.", metadata: { docId: "note" } };

/**
 * A data folder as an earlier release left it: the example base ingested with the offline
 * embedder's version 1 (or `embeddings`), and `note` written through the port when asked
 * (`"only"`: no ingest at all).
 */
async function ingestedByAnEarlierRelease(
  options: { note?: boolean | "only"; embeddings?: ReturnType<typeof createOfflineEmbeddings> } = {},
): Promise<string> {
  const dataDirectory = await mkdtemp(join(tmpdir(), "earlier-release-"));
  folders.push(dataDirectory);
  const writer = await openLocalSearchPort({
    directory: localIndexDirectory(dataDirectory),
    embeddings: options.embeddings ?? createOfflineEmbeddings({ chineseGlosses: false }),
    mode: "write",
  });
  try {
    if (options.note !== "only") await ingestFolder({ root: exampleKnowledgeBase, dataDirectory, writer });
    if (options.note !== undefined && options.note !== false) {
      await writer.upsert([note]);
      await writer.commit();
    }
  } finally {
    await writer.close();
  }
  return dataDirectory;
}

/** An embedder with the offline one's vectors under another identity. */
function renamed(identity: { id: string; version: string }) {
  const embeddings = createOfflineEmbeddings({ chineseGlosses: false });
  Object.defineProperty(embeddings, "identity", { value: { ...identity, dimension: embeddings.identity.dimension } });
  return embeddings;
}

async function expectRefusedAndKept(dataDirectory: string, embeddings: ReturnType<typeof createOfflineEmbeddings>, chunks?: number) {
  await expect(ingestIntoLocalIndex({ root: exampleKnowledgeBase, dataDirectory })).rejects.toSatisfy((error: unknown) =>
    EmbedderMismatchError.isInstance(error),
  );
  const reader = await openLocalSearchPort({ directory: localIndexDirectory(dataDirectory), embeddings });
  try {
    expect(reader.stats()).toMatchObject({ embedder: embeddings.identity, ...(chunks === undefined ? {} : { chunks }) });
  } finally {
    await reader.close();
  }
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

  it("refuses an index that holds records no ingest listed, so nothing it holds is lost", async () => {
    await expectRefusedAndKept(await ingestedByAnEarlierRelease({ note: "only" }), createOfflineEmbeddings({ chineseGlosses: false }), 1);
    const mixed = await ingestedByAnEarlierRelease({ note: true });
    const reader = await openLocalSearchPort({
      directory: localIndexDirectory(mixed),
      embeddings: createOfflineEmbeddings({ chineseGlosses: false }),
    });
    const chunks = reader.stats().chunks;
    await reader.close();
    await expectRefusedAndKept(mixed, createOfflineEmbeddings({ chineseGlosses: false }), chunks);
  });

  it("refuses an index another embedder or a later version of this one wrote", async () => {
    const paid = renamed({ id: "openai/text-embedding-3-small", version: "1" });
    await expectRefusedAndKept(await ingestedByAnEarlierRelease({ embeddings: paid }), paid);
    const later = renamed({ id: createOfflineEmbeddings().identity.id, version: "3" });
    await expectRefusedAndKept(await ingestedByAnEarlierRelease({ embeddings: later }), later);
  });
});
