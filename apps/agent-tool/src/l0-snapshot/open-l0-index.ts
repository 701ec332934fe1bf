import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { readIngestManifest } from "@lookup-knowledge/ingest/manifest";
import { createL0Index, restoreL0Index, type L0Index, type L0IndexOptions } from "@lookup-knowledge/l0-hints";
import { l0SnapshotKey } from "./l0-snapshot-key.js";
import { readL0Snapshot } from "./read-l0-snapshot.js";

/**
 * The L0 index of a data folder for lookups: opened from the snapshot the last ingest wrote
 * (`l0-index.bin`) when it stands for the folder as it is, else built from the ingest manifest
 * as before (issue 36 item 5). A snapshot that is missing, stale (the manifest or the index
 * changed since) or of another version is passed over silently; a damaged one is passed over
 * and `onWarning` says why. Never hints from a snapshot that does not stand for the folder.
 */
export async function openL0Index(options: {
  dataDirectory: string;
  records: number;
  indexOptions: L0IndexOptions;
  onWarning: (message: string) => void;
}): Promise<L0Index> {
  const { dataDirectory, indexOptions } = options;
  const key = await l0SnapshotKey(dataDirectory, options.records);
  if (key !== undefined) {
    const read = await readL0Snapshot(dataDirectory, key);
    if ("body" in read) {
      try {
        return restoreL0Index(read.body, indexOptions);
      } catch (error) {
        if (!LookupKnowledgeError.isInstance(error)) throw error;
        if (error.code === "invalid_l0_snapshot") options.onWarning(`${fallback}: ${error.message}`);
        else if (error.code !== "stale_l0_snapshot") throw error;
      }
    } else if (read.unused === "damaged") {
      options.onWarning(`${fallback}: ${read.reason}`);
    }
  }
  return l0IndexFromManifest(dataDirectory, indexOptions);
}

/** The L0 index built from the entries the folder's ingest manifest lists (none without one). */
export async function l0IndexFromManifest(directory: string, indexOptions: L0IndexOptions): Promise<L0Index> {
  const manifest = await readIngestManifest(directory);
  const entries = manifest ? Object.values(manifest.documents).map((document) => document.entry) : [];
  return createL0Index(entries, indexOptions);
}

const fallback = "The L0 snapshot is not used; the L0 index is built from the ingest manifest (the next ingest writes the snapshot again)";
