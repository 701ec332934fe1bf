import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { AnalyzerMismatchError, EmbedderMismatchError, openLocalSearchPort } from "@lookup-knowledge/search-port/local";
import type { LocalIndexStats, LocalSearchPort } from "@lookup-knowledge/search-port/local";
import { writeL0SnapshotOrWarn } from "./l0-snapshot/write-l0-snapshot.js";
import { localIndexDirectory } from "./local-data-folder.js";

/** What `optimizeLocalIndex` did: the index's stats before and after, and how long it took. */
export interface OptimizeReport {
  before: LocalIndexStats;
  after: LocalIndexStats;
  ms: number;
}

/**
 * Merges the embedded index of `dataDirectory` into one segment and drops its deleted records
 * (`LocalSearchPort.optimize`), with the writer's lock, as ingest opens it: the offline
 * embedder's vectors, or none for a lexical-only index. An index written with another text
 * analyser is analysed again by the writer first (as ingest would). Readers keep searching the
 * commit they hold until the merged one is switched in. Throws `IndexNotFoundError` when the
 * folder holds no index (and creates nothing).
 */
export async function optimizeLocalIndex(input: {
  dataDirectory: string;
  /** Told when the L0 snapshot cannot be written after the merge committed (default: `console.warn`). */
  onWarning?: (message: string) => void;
}): Promise<OptimizeReport> {
  const directory = localIndexDirectory(input.dataDirectory);
  // Read first: a missing index is refused, not created, and the embedder it holds decides how the writer opens.
  let before: LocalIndexStats | undefined;
  try {
    const reader = await openLocalSearchPort({ directory });
    before = reader.stats();
    await reader.close();
  } catch (error) {
    // Another analyser's index: readers refuse it, the writer analyses it again.
    if (!AnalyzerMismatchError.isInstance(error)) throw error;
  }
  const writer = await openWriter(directory, before === undefined || before.embedder !== undefined);
  try {
    before ??= writer.stats();
    const started = performance.now();
    await writer.optimize();
    const ms = performance.now() - started;
    // The merged commit is a new index file: the L0 snapshot is keyed to it, so write it again (issue 36 item 5).
    await writeL0SnapshotOrWarn(input.dataDirectory, writer, input.onWarning);
    return { before, after: writer.stats(), ms };
  } finally {
    await writer.close();
  }
}

/** The writer, with the offline embedder when the index may hold its vectors; without, when it holds none. */
async function openWriter(directory: string, withVectors: boolean): Promise<LocalSearchPort> {
  if (!withVectors) return openLocalSearchPort({ directory, mode: "write" });
  try {
    return await openLocalSearchPort({ directory, mode: "write", embeddings: createOfflineEmbeddings() });
  } catch (error) {
    if (EmbedderMismatchError.isInstance(error) && error.indexEmbedder === null) return openLocalSearchPort({ directory, mode: "write" });
    throw error;
  }
}
