import { closeSync, fsyncSync, openSync } from "node:fs";

/**
 * The codes of a folder sync that a platform or file system cannot do, where the rename
 * stays atomic and its durability is the file system's: Windows cannot open a folder as a
 * file (EISDIR) nor flush a folder's handle (EPERM), and some file systems (network,
 * FUSE) refuse to sync a folder (EINVAL, ENOTSUP).
 */
const cannotSyncFolder = new Set(["EISDIR", "EPERM", "EINVAL", "ENOTSUP"]);

/**
 * Makes the names in `directory` durable (a rename, a new file). Where the platform cannot
 * sync a folder it does nothing; any other failure (EIO, ENOSPC, ...) is thrown: the caller's
 * names may not be on the disk.
 */
export function syncDirectory(directory: string): void {
  let descriptor: number;
  try {
    descriptor = openSync(directory, "r");
  } catch (error) {
    if (cannotSync(error)) return;
    throw error;
  }
  try {
    fsyncSync(descriptor);
  } catch (error) {
    if (!cannotSync(error)) throw error;
  } finally {
    closeSync(descriptor);
  }
}

function cannotSync(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && cannotSyncFolder.has(code);
}
