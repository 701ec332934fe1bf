import { constants, type Stats } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { notRegularFile } from "../folder-scan/not-regular-file.js";

/**
 * Read-only and non-blocking: opening a FIFO waits for a writer unless it is opened
 * O_NONBLOCK, so one that takes a file's place after the check below reads as empty instead
 * of hanging (0 where the platform has no such flag).
 */
const openFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The bytes of the regular file at `path`. What is not a regular file (a FIFO, a socket, a
 * device) is refused with an error saying what it is, never read. `checked`: the stats of
 * `path` the caller has just taken (`ReadAhead`, for the file's size), so it is not asked for
 * again; without them the file is stat'ed first.
 */
export async function readRegularFile(path: string, signal?: AbortSignal, checked?: Stats): Promise<Buffer> {
  const stats = checked ?? (await stat(path));
  if (!stats.isFile()) throw new Error(notRegularFile(stats));
  const bytes = await readFile(path, signal === undefined ? { flag: openFlags } : { flag: openFlags, signal });
  // A FIFO swapped in after the check reads as empty (non-blocking): refuse it rather than
  // take it for an emptied file, whose chunks would be deleted.
  if (bytes.length === 0) {
    const now = await stat(path);
    if (!now.isFile()) throw new Error(notRegularFile(now));
  }
  return bytes;
}
