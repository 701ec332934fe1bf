import { join } from "node:path";

/** The L0 snapshot's file name in a data folder, beside `ingest-manifest.json`. */
export const l0SnapshotFileName = "l0-index.bin";

/** The L0 snapshot's path in a data folder. */
export function l0SnapshotPath(dataDirectory: string): string {
  return join(dataDirectory, l0SnapshotFileName);
}

/** What the file's first line says: the format, its version, what it stands for, and the body's size and checksum. */
export interface L0SnapshotFileHead {
  format: typeof l0SnapshotFormat;
  version: number;
  key: string;
  bytes: number;
  sha256: string;
}

export const l0SnapshotFormat = "lookup-knowledge-l0-snapshot";
/** Bump when the file's head changes (the body has its own layout version, checked by l0-hints). */
export const l0SnapshotFileVersion = 1;
