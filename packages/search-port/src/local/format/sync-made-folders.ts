import { dirname, resolve } from "node:path";
import { syncDirectory } from "./sync-directory.js";

/**
 * After `mkdirSync(directory, { recursive: true })` returned `made` (the first folder it
 * created, undefined when none), syncs the parent of each folder it made, so their names are
 * durable before a manifest inside them is: a commit syncs only the index folder itself.
 */
export function syncMadeFolders(directory: string, made: string | undefined): void {
  if (made === undefined) return;
  const top = dirname(resolve(made));
  let folder = resolve(directory);
  while (folder !== top) {
    const parent = dirname(folder);
    syncDirectory(parent);
    if (parent === folder) return;
    folder = parent;
  }
}
