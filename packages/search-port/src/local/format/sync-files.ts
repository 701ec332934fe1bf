import { open } from "node:fs/promises";
import { join } from "node:path";

/**
 * Files synced at a time: enough to keep the thread pool (4 threads by default) busy, few
 * enough that a commit listing hundreds of new files (a 10M build's segments) stays far from
 * the process's limit of open files.
 */
export const syncFilesAtOnce = 8;

/**
 * Makes the contents of the files `names` in `directory` durable (fsync), at most
 * `syncFilesAtOnce` open at a time: the data files a commit wrote are written without a sync
 * and synced here, once, just before a manifest first lists them (README, "Folder format").
 * Opened for writing, since some platforms refuse to sync a file opened only to read. The
 * first failure is thrown once the syncs under way have ended; no new one starts after it.
 */
export async function syncFiles(directory: string, names: readonly string[]): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const syncNext = async (): Promise<void> => {
    while (failure === undefined && next < names.length) {
      const name = names[next] as string;
      next += 1;
      try {
        const handle = await open(join(directory, name), "r+");
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(syncFilesAtOnce, names.length) }, syncNext));
  if (failure !== undefined) throw failure.error;
}
