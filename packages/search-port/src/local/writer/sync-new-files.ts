import { FilesNotSyncedError } from "../errors/files-not-synced-error.js";
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
    // The files' names: without them durable, the manifest could name files a crash loses.
    syncDirectory(directory);
  } catch (error) {
    throw new FilesNotSyncedError(directory, error);
  }
  return names;
}
