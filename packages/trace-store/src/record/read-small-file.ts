import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/**
 * What `readSmallFile` found at a path: the file's text, no file, something that is not a
 * regular file (a FIFO, a device, a folder), or a regular file longer than the bound.
 */
export type SmallFile = { kind: "text"; text: string } | { kind: "missing" } | { kind: "not-a-file" } | { kind: "too-large" };

/** Non-blocking, so a FIFO put in the file's place is not waited on (0 where the platform has no such flag). */
const openFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads `path` as UTF-8 when it is a regular file of at most `maxBytes`, for small files another
 * process may have put there (a lock's owner file, a trace folder's key): anything else in its
 * place is neither waited on (the open does not block, so a FIFO with no writer does not hang
 * the process) nor read whole (at most `maxBytes` + 1 bytes are read). `missing` when nothing is
 * there (ENOENT); other errors of the file system (EACCES, ENOTDIR...) are thrown.
 */
export function readSmallFile(path: string, maxBytes: number): SmallFile {
  let descriptor: number;
  try {
    descriptor = openSync(path, openFlags);
  } catch (error) {
    if ((error as NodeJS.ErrnoException | null)?.code === "ENOENT") return { kind: "missing" };
    throw error;
  }
  try {
    if (!fstatSync(descriptor).isFile()) return { kind: "not-a-file" };
    const bytes = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < bytes.length; length += read)
      read = readSync(descriptor, bytes, length, bytes.length - length, null);
    return length > maxBytes ? { kind: "too-large" } : { kind: "text", text: bytes.toString("utf8", 0, length) };
  } finally {
    closeSync(descriptor);
  }
}
