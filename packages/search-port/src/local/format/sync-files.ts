import { open } from "node:fs/promises";
import { join } from "node:path";

/**
 * Makes the contents of the files `names` in `directory` durable (fsync), all at once: the
 * data files a commit wrote are written without a sync and synced here, once, just before a
 * manifest first lists them (README, "Folder format"). Opened for writing, since some
 * platforms refuse to sync a file opened only to read.
 */
export async function syncFiles(directory: string, names: readonly string[]): Promise<void> {
  await Promise.all(
    names.map(async (name) => {
      const handle = await open(join(directory, name), "r+");
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }),
  );
}
