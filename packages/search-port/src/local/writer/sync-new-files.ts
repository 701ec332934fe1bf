import { storedFileEntries } from "../format/segmented-manifest.js";
import type { StoredManifest } from "../format/segmented-manifest.js";
import { syncDirectory } from "../format/sync-directory.js";
import { syncFiles } from "../format/sync-files.js";

/**
 * The step of a commit between its data files and its manifest: every file `manifest` lists
 * that `previous` (the last commit) did not is synced, then the folder (their names), so the
 * manifest written next never names a file a crash could lose. The files of `previous` were
 * synced by its own commit; a file is never written again once created (its name carries its
 * commit id), and one written but never listed (a flushed segment merged away before any
 * commit listed it) is never synced at all. Returns the names it synced.
 */
export async function syncNewFiles(directory: string, manifest: StoredManifest, previous: StoredManifest | undefined): Promise<string[]> {
  const listed = new Set(previous === undefined ? [] : storedFileEntries(previous).map((entry) => entry.name));
  const names = storedFileEntries(manifest)
    .map((entry) => entry.name)
    .filter((name) => !listed.has(name));
  try {
    await syncFiles(directory, names);
  } catch (error) {
    throw new FilesNotSyncedError(directory, error);
  }
  syncDirectory(directory);
  return names;
}

/**
 * A commit could not make its new files durable. The writer that meets it writes nothing more:
 * a file whose sync failed may have lost its data though a later sync of it succeeds (Linux
 * reports a failed write-back once), and a segment flushed before the commit would be listed
 * again by the next one.
 */
export class FilesNotSyncedError extends Error {
  constructor(directory: string, cause: unknown) {
    super(
      `A commit to the index at ${directory} could not sync its new data files (${cause instanceof Error ? cause.message : String(cause)}): it was not made, and this writer writes nothing more. Close it and open a new writer, which starts from the last commit.`,
      { cause },
    );
    this.name = "FilesNotSyncedError";
  }
}
