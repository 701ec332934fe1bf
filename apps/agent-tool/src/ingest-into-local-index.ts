import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import type { IngestOptions, IngestProgress, IngestReport } from "@lookup-knowledge/ingest";
import { readIngestManifest } from "@lookup-knowledge/ingest/manifest";
import { openLocalSearchPort, type CommittedIndexSummary, type EmbedderIdentity } from "@lookup-knowledge/search-port/local";
import { writeL0SnapshotOrWarn } from "./l0-snapshot/write-l0-snapshot.js";
import { localIndexDirectory } from "./local-data-folder.js";

/**
 * Ingests a Markdown folder into the embedded index of `dataDirectory`, incrementally. When
 * the index is missing or empty while the ingest manifest still lists documents (the index
 * folder was deleted or rebuilt), every document is written again instead of being skipped.
 * So is every document of an index an earlier version of the offline embedder wrote (that
 * ingests wrote whole): the index is rebuilt with this version, and stays as it was, for
 * processes of the earlier release, until the rebuild commits.
 */
export async function ingestIntoLocalIndex(input: {
  root: string;
  dataDirectory: string;
  options?: IngestOptions;
  /** Replace the documents of another root folder held in `dataDirectory`. */
  replace?: boolean;
  onProgress?: (progress: IngestProgress) => void;
  signal?: AbortSignal;
  /** Told when the L0 snapshot cannot be written after the ingest committed (default: `console.warn`). */
  onWarning?: (message: string) => void;
}): Promise<IngestReport> {
  // The Markdown parser is loaded here, not with this module: opening a knowledge base for lookups does not load it.
  const { ingestFolder } = await import("@lookup-knowledge/ingest");
  const embeddings = createOfflineEmbeddings();
  const listed = Object.values((await readIngestManifest(input.dataDirectory))?.documents ?? {});
  const writer = await openLocalSearchPort({
    directory: localIndexDirectory(input.dataDirectory),
    embeddings,
    mode: "write",
    onEmbedderChange: (committed) => (rebuildable(committed, embeddings.identity, listed) ? "start-empty" : "refuse"),
  });
  try {
    const manifest = await readIngestManifest(input.dataDirectory);
    const rebuild = writer.stats().chunks === 0 && Object.keys(manifest?.documents ?? {}).length > 0;
    const report = await ingestFolder({
      root: input.root,
      dataDirectory: input.dataDirectory,
      writer,
      ...(input.options ? { options: input.options } : {}),
      ...(input.onProgress ? { onProgress: input.onProgress } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.replace ? { replace: true } : {}),
      ...(rebuild ? { rebuild: true } : {}),
    });
    // Lookups open this instead of reading the manifest and building the L0 index (issue 36 item 5).
    await writeL0SnapshotOrWarn(input.dataDirectory, writer, input.onWarning);
    return report;
  } finally {
    await writer.close();
  }
}

/**
 * Whether an index of another embedder is rebuilt: only one an earlier version of this
 * offline embedder wrote (never another embedder's, nor a later version's), and only when
 * ingests wrote all of it (its chunks are the ones the ingest manifest lists), so the
 * rebuild writes everything it holds again. Anything else is refused, as before.
 */
function rebuildable(committed: CommittedIndexSummary, offline: EmbedderIdentity, listed: ReadonlyArray<{ chunkCount: number }>): boolean {
  const embedder = committed.embedder;
  if (embedder === null || embedder.id !== offline.id || embedder.dimension !== offline.dimension) return false;
  const method = (version: string) => /^(\d+)(;|$)/.exec(version)?.[1];
  const earlier = method(embedder.version);
  const current = method(offline.version);
  if (earlier === undefined || current === undefined || Number(earlier) >= Number(current)) return false;
  const chunks = listed.reduce((sum, document) => sum + document.chunkCount, 0);
  return listed.length > 0 && committed.chunks === chunks;
}
