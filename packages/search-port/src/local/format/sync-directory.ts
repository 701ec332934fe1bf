import { closeSync, fsyncSync, openSync } from "node:fs";

/** Best effort: makes a rename in `directory` durable. */
export function syncDirectory(directory: string): void {
  try {
    const descriptor = openSync(directory, "r");
    try {
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
  } catch {
    // Not every platform can open a directory; the rename is still atomic.
  }
}
