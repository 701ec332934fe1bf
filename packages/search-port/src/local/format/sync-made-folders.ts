import { dirname, resolve } from "node:path";
import { syncDirectory } from "./sync-directory.js";

/**
 * After `mkdirSync(directory, { recursive: true })` returned `made` (the first folder it
 * created, undefined when none), syncs the parent of each folder it made, so their names are
 * durable before a manifest inside them is: a commit syncs only the index folder itself.
 *
 * A parent the process may enter but not read (mode `--x`, EACCES at its open) cannot be
 * synced by it, as on a platform that cannot sync folders: the new name's durability is the
 * file system's, and the writer opens. Any other failure (EIO, ENOSPC, ...) stops the open
 * with an error naming the folder made and the parent that failed.
 */
export function syncMadeFolders(directory: string, made: string | undefined): void {
  if (made === undefined) return;
  const top = dirname(resolve(made));
  let folder = resolve(directory);
  while (folder !== top) {
    const parent = dirname(folder);
    syncParent(directory, folder, parent);
    if (parent === folder) return;
    folder = parent;
  }
}

/** Syncs `parent`, which holds `folder`, made for the index folder `directory`. */
function syncParent(directory: string, folder: string, parent: string): void {
  try {
    syncDirectory(parent);
  } catch (error) {
    // An fsync never fails with EACCES: it is the open of a folder this process may not read.
    if ((error as { code?: unknown } | null)?.code === "EACCES") return;
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `The index folder ${JSON.stringify(directory)} was created, but its name could not be made durable: syncing the parent ${JSON.stringify(parent)} of ${JSON.stringify(folder)} failed (${why}). Nothing was written into it; check the disk, then open the writer again.`,
      { cause: error },
    );
  }
}
