import { randomUUID } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Writes `parts` to `path` atomically: they go to a temporary file in the same directory
 * (`writeFile` loops until every byte is written), which is flushed to disk, renamed over
 * `path`, and the directory flushed, so a crash leaves the old file or the new one, never
 * half of one. On a failure the temporary file is removed and the old file stays.
 */
export async function writeFileAtomically(path: string, parts: ReadonlyArray<string | Uint8Array>): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`;
  try {
    const handle = await open(temporary, "w");
    try {
      for (const part of parts) await handle.writeFile(part);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(dirname(path));
}

/** Flushes the directory entry of the rename; not every platform allows it, so failures are ignored. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort (Windows cannot open a directory for syncing).
  }
}
