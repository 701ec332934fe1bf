import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import type { IndexFileEntry } from "./index-manifest.js";

/** Throws `CorruptIndexError` when a file's size (or, given, its SHA-256) differs from its manifest entry. */
export function checkFileEntry(directory: string, entry: IndexFileEntry, bytes: number, sha256: string | undefined): void {
  if (bytes !== entry.bytes) {
    throw new CorruptIndexError({ directory, reason: `${entry.name} has ${bytes} bytes, the manifest says ${entry.bytes}` });
  }
  if (sha256 !== undefined && sha256 !== entry.sha256) {
    throw new CorruptIndexError({ directory, reason: `${entry.name} does not match its checksum in the manifest` });
  }
}
