import { manifestFileName } from "../format/index-manifest.js";
import { segmentManifest, storedFileEntries } from "../format/segmented-manifest.js";
import { syncDirectory } from "../format/sync-directory.js";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { FilesNotSyncedError } from "../errors/files-not-synced-error.js";
import { MissingDataFileError } from "../errors/missing-data-file-error.js";
import type { LocalPortSettings } from "../port/read-local-port-settings.js";
import { loadLazyGeneration } from "../reader/load-lazy-generation.js";
import type { LocalIndexState, StateSegment } from "../snapshot/local-index-state.js";
import type { CommitHooks } from "./commit-hooks.js";
import type { PreparedCommit } from "./prepare-commit.js";
import { removeUnreferencedFiles } from "./remove-unreferenced-files.js";
import { staleMs } from "./write-lock.js";

/**
 * Once a commit's manifest switched: `state` takes the new commit, first with the segments as
 * the commit wrote them (held in memory, or composed of those merged), so a failure below
 * leaves it matching the manifest; then those it wrote are opened from their files (as a
 * reader opens them), those it dropped closed, and files no manifest names go (`removable`:
 * the writer's own files, which it may remove at once; the new commit's are added to it).
 * A folder sync that fails after the switch is thrown last (`FilesNotSyncedError`, made), and
 * no file goes: the previous manifest's files are kept for a crash that undoes the rename.
 */
export function adoptCommit(
  context: { settings: LocalPortSettings; state: LocalIndexState; hooks: CommitHooks },
  prepared: PreparedCommit,
  removable: Set<string>,
): void {
  const { settings, state, hooks } = context;
  const { directory, postingsCacheBytes } = settings;
  const { manifest } = prepared;
  state.manifest = manifest;
  for (const entry of storedFileEntries(manifest)) removable.add(entry.name);
  const listed = prepared.segments.map((segment): StateSegment => ({ ...segment, committed: true, committedDeleted: segment.deleted }));
  state.segments = listed;
  state.rewriteAll = false;
  state.recompose();
  // A segment dropped for having no live record is no part of a listed one: closed now, so
  // a failure below leaks none of its files (those merged away back a merged segment until it is opened).
  const [empty, merged] = partition(prepared.dropped, (segment) => liveRecords(segment) === 0);
  for (const segment of empty) segment.snapshot.records.file?.close();
  // The rename is made: a failed folder sync is thrown once the state matches the manifest.
  let unsynced: { error: unknown } | undefined;
  try {
    syncDirectory(directory);
  } catch (error) {
    unsynced = { error };
  }
  hooks.afterManifest?.(manifest);
  // A segment written from memory or merged from others is read from its files from now on;
  // the others' files (and those of segments merged away) stay open until they are dropped.
  const opened: StateSegment[] = [];
  try {
    listed.forEach((segment, index) => {
      const snapshot = prepared.fresh[index]
        ? loadLazyGeneration(directory, segmentManifest(manifest, index), state.dimension > 0, { postingsCacheBytes })
        : segment.snapshot;
      opened.push({ ...segment, snapshot });
    });
  } catch (error) {
    prepared.fresh.forEach((fresh, index) => {
      if (fresh) opened[index]?.snapshot.records.file?.close();
    });
    if (!(error instanceof MissingDataFileError)) throw error;
    throw new CorruptIndexError({ directory, reason: `${error.message}, listed in ${manifestFileName}, is missing` });
  }
  for (const segment of merged) segment.snapshot.records.file?.close();
  state.segments = opened;
  state.recompose();
  // Unsynced, a crash may bring the previous manifest back: its files stay (a later writer removes them once stale).
  if (unsynced !== undefined) throw new FilesNotSyncedError(directory, unsynced.error, true);
  removeUnreferencedFiles(directory, state.manifest, removable, staleMs);
}

function liveRecords(segment: StateSegment): number {
  let live = segment.snapshot.count;
  if (segment.deleted !== undefined) for (let slot = 0; slot < segment.snapshot.count; slot += 1) live -= segment.deleted[slot] ?? 0;
  return live;
}

function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  const passing: T[] = [];
  const failing: T[] = [];
  for (const item of items) (test(item) ? passing : failing).push(item);
  return [passing, failing];
}
