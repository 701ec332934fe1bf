import * as fs from "node:fs";
import { join } from "node:path";
import type { LockFolder } from "./lock-folder.js";
import { lockOwnerFileName, removeLockOwner } from "./lock-owner.js";

/**
 * The file system proper-lockfile is given (the calls it makes). proper-lockfile removes the
 * lock folder on release and at process exit without asking whose it is; this one leaves a
 * folder made by a writer that took the lock over alone (`LockFolder.mayRemove`).
 */
export function guardedLockFs(folder: LockFolder) {
  return {
    mkdir: fs.mkdir,
    realpath: fs.realpath,
    stat: fs.stat,
    utimes: fs.utimes,
    // The folder holds the owner file: it goes first, so the folder can be removed.
    rmdir(path: fs.PathLike, callback: (error: NodeJS.ErrnoException | null) => void): void {
      if (!folder.mayRemove(path)) {
        callback(null);
        return;
      }
      fs.rm(join(String(path), lockOwnerFileName), { force: true }, () => fs.rmdir(path, callback));
    },
    rmdirSync(path: fs.PathLike): void {
      if (!folder.mayRemove(path)) return;
      removeLockOwner(String(path));
      fs.rmdirSync(path);
    },
  };
}
