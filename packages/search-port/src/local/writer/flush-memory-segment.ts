import { newCommitId } from "../format/index-manifest.js";
import { segmentManifest } from "../format/segmented-manifest.js";
import type { EmbedderIdentity } from "../port/local-search-port.js";
import { loadLazyGeneration } from "../reader/load-lazy-generation.js";
import type { LocalIndexState } from "../snapshot/local-index-state.js";
import { removeFiles } from "./remove-unreferenced-files.js";
import { sharedManifestFields } from "./prepare-commit.js";
import { writeSegment } from "./write-segment.js";

/**
 * Records a writer holds in memory before it writes them as a segment of their own (unless a
 * commit comes first), so the memory an ingest takes is bounded by this, not by the index: a
 * segment in memory costs about 5 KB a record (text, terms, vector codes; measured with
 * `BENCH_FLUSH_RECORDS`, bench/index-peers/README.md).
 */
export const defaultFlushRecords = 50_000;

/**
 * Writes the segment `state` holds in memory (upserts since the last commit, pending ones
 * folded in) to files of its own once it holds `flushRecords` records, and reads it from them
 * from then on: no manifest lists it until the next commit does, so a crash before that
 * leaves the index as it was (its files are left over, removed by a later writer). The files
 * written are added to `written` (the writer's files it may remove once no manifest lists them).
 */
export async function flushMemorySegment(
  directory: string,
  state: LocalIndexState,
  embedder: EmbedderIdentity | null,
  options: { flushRecords: number; postingsCacheBytes?: number | undefined },
  written: Set<string>,
): Promise<void> {
  const last = state.segments.at(-1);
  const uncommitted = last !== undefined && last.entry === undefined && !last.committed;
  const held = (state.pending?.added.size ?? 0) + (uncommitted ? last.snapshot.count : 0);
  if (held < options.flushRecords) return;
  state.current();
  const segment = state.segments.at(-1);
  if (segment === undefined || segment.entry !== undefined || segment.committed) return;
  const generation = (state.manifest?.generation ?? 0) + 1;
  const created: string[] = [];
  let snapshot: ReturnType<typeof loadLazyGeneration>;
  let entry: Awaited<ReturnType<typeof writeSegment>>["entry"];
  try {
    ({ entry } = await writeSegment(directory, generation, newCommitId(), segment.snapshot, created));
    const shared = sharedManifestFields(generation, newCommitId(), segment.snapshot.vectors === undefined ? null : embedder);
    snapshot = loadLazyGeneration(directory, segmentManifest({ ...shared, segments: [entry] }, 0), state.dimension > 0, {
      postingsCacheBytes: options.postingsCacheBytes,
    });
  } catch (error) {
    removeFiles(directory, created);
    throw error;
  }
  for (const name of created) written.add(name);
  state.segments = [...state.segments.slice(0, -1), { ...segment, entry, snapshot }];
  state.recompose();
}
