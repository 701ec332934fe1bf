import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { openLocalSearchPort } from "@lookup-knowledge/search-port/local";
import type { LocalIndexStats } from "@lookup-knowledge/search-port/local";
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
 * embedder's vectors, or none for a lexical-only index. Readers keep searching the commit they
 * hold until the merged one is switched in. Throws `IndexNotFoundError` when the folder holds no index.
 */
export async function optimizeLocalIndex(input: { dataDirectory: string }): Promise<OptimizeReport> {
  const directory = localIndexDirectory(input.dataDirectory);
  // Read first: the embedder it holds decides how the writer opens (and a missing index is refused, not created).
  const reader = await openLocalSearchPort({ directory });
  const before = reader.stats();
  await reader.close();
  const embeddings = before.embedder === undefined ? {} : { embeddings: createOfflineEmbeddings() };
  const writer = await openLocalSearchPort({ directory, mode: "write", ...embeddings });
  try {
    const started = performance.now();
    await writer.optimize();
    return { before, after: writer.stats(), ms: performance.now() - started };
  } finally {
    await writer.close();
  }
}
