import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import type { IngestOptions, IngestProgress, IngestReport } from "@lookup-knowledge/ingest";
import { readIngestManifest } from "@lookup-knowledge/ingest/manifest";
import { openLocalSearchPort } from "@lookup-knowledge/search-port/local";
import { localIndexDirectory } from "./local-data-folder.js";

/**
 * Ingests a Markdown folder into the embedded index of `dataDirectory`, incrementally. When
 * the index is missing or empty while the ingest manifest still lists documents (the index
 * folder was deleted or rebuilt), every document is written again instead of being skipped.
 * So is every document of an index whose vectors another embedder made (one of an earlier
 * release): the index is rebuilt with this one, and stays as it was until the rebuild commits.
 */
export async function ingestIntoLocalIndex(input: {
  root: string;
  dataDirectory: string;
  options?: IngestOptions;
  /** Replace the documents of another root folder held in `dataDirectory`. */
  replace?: boolean;
  onProgress?: (progress: IngestProgress) => void;
  signal?: AbortSignal;
}): Promise<IngestReport> {
  // The Markdown parser is loaded here, not with this module: opening a knowledge base for lookups does not load it.
  const { ingestFolder } = await import("@lookup-knowledge/ingest");
  // Only an index that ingests wrote whole starts empty for a new embedder: every document it
  // holds is listed, so the rebuild writes them all again. Anything else is refused as before.
  const listsDocuments = Object.keys((await readIngestManifest(input.dataDirectory))?.documents ?? {}).length > 0;
  const writer = await openLocalSearchPort({
    directory: localIndexDirectory(input.dataDirectory),
    embeddings: createOfflineEmbeddings(),
    mode: "write",
    ...(listsDocuments ? { onEmbedderChange: "start-empty" as const } : {}),
  });
  try {
    const manifest = await readIngestManifest(input.dataDirectory);
    const rebuild = writer.stats().chunks === 0 && Object.keys(manifest?.documents ?? {}).length > 0;
    return await ingestFolder({
      root: input.root,
      dataDirectory: input.dataDirectory,
      writer,
      ...(input.options ? { options: input.options } : {}),
      ...(input.onProgress ? { onProgress: input.onProgress } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.replace ? { replace: true } : {}),
      ...(rebuild ? { rebuild: true } : {}),
    });
  } finally {
    await writer.close();
  }
}
