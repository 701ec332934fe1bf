import { manifestBytes } from "../format/manifest-text.js";
import { isSegmented } from "../format/segmented-manifest.js";
import type { StoredManifest } from "../format/segmented-manifest.js";
import type { EmbedderIdentity, LocalIndexStats } from "../port/local-search-port.js";
import type { LocalIndexState } from "../snapshot/local-index-state.js";
import type { RefreshError } from "./reader-refresh.js";

/**
 * What a port's `stats()` says of `state`: a reader counts the committed generation it
 * serves (its manifest's counts), a writer what its searches see now (pending changes
 * included); bytes and time of the last commit, and a reader's last refresh failure.
 */
export function localIndexStats(
  state: LocalIndexState,
  mode: "read" | "write",
  vectorEmbedder: EmbedderIdentity | null,
  refreshError: RefreshError | undefined,
): LocalIndexStats {
  const { manifest } = state;
  const embedder = vectorEmbedder ?? (mode === "read" ? (manifest?.embedder ?? null) : null);
  return {
    ...(mode === "read" ? { documents: manifest?.documents ?? 0, chunks: manifest?.chunks ?? 0 } : writerCounts(state)),
    ...(embedder === null ? {} : { embedder: { ...embedder } }),
    bytesOnDisk: manifest === undefined ? 0 : manifestBytes(manifest),
    segments: mode === "read" ? committedSegments(manifest) : writerSegments(state),
    ...(manifest === undefined ? {} : { lastCommit: manifest.committedAt }),
    ...(refreshError === undefined ? {} : { refreshError: { ...refreshError } }),
  };
}

/**
 * A writer's documents and chunks as its searches see them: pending changes folded in, then
 * the documents its state keeps counted (`LocalIndexState.documents`), so no segment's ids are
 * read whole and kept (every id and document id, per segment, for the rest of the writer's life).
 */
function writerCounts(state: LocalIndexState): { documents: number; chunks: number } {
  const documents = state.documents();
  return { documents, chunks: state.current().count };
}

function committedSegments(manifest: StoredManifest | undefined): number {
  if (manifest === undefined) return 0;
  return isSegmented(manifest) ? manifest.segments.length : 1;
}

/** A writer's segments: those it holds, and one for upserts not yet folded into one held in memory. */
function writerSegments(state: LocalIndexState): number {
  const held = state.segments.filter((segment) => segment.snapshot.count > 0).length;
  const last = state.segments.at(-1);
  const inMemory = last !== undefined && last.entry === undefined && last.snapshot.count > 0;
  return held + ((state.pending?.added.size ?? 0) > 0 && !inMemory ? 1 : 0);
}
