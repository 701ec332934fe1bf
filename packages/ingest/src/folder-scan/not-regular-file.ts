import type { Dirent } from "node:fs";

/** Why an entry that is neither a folder nor a regular file is not read: what it is. */
export function notRegularFile(entry: Pick<Dirent, "isFIFO" | "isSocket" | "isBlockDevice" | "isCharacterDevice">): string {
  const what = entry.isFIFO()
    ? "a named pipe (FIFO)"
    : entry.isSocket()
      ? "a socket"
      : entry.isBlockDevice() || entry.isCharacterDevice()
        ? "a device"
        : "something other than a file";
  return `${what}, not a regular file: not read`;
}
