import { stat } from "node:fs/promises";
import { join } from "node:path";
import { ingestManifestFileName } from "@lookup-knowledge/ingest/manifest";
import { l0SnapshotVersion } from "@lookup-knowledge/l0-hints";
import { analyzerVersion } from "@lookup-knowledge/text";
import { commonTermRecords, commonTermShare } from "../common-term-test.js";
import { localIndexDirectory } from "../local-data-folder.js";

/**
 * What an L0 snapshot stands for, read without opening either file: the identity (inode, size,
 * modification time in nanoseconds) of the ingest manifest, whose entries the index holds, and
 * of the local index's manifest, whose committed generation `isCommonTerm` counted in (both are
 * written to a new file and renamed over the old at each commit, so a change gives a new
 * identity), with the index's record count, the common-term thresholds, the snapshot's layout
 * version and the text analyser's (so an upgrade writes it again). `undefined` when the
 * ingest manifest is missing (nothing to snapshot).
 */
export async function l0SnapshotKey(dataDirectory: string, records: number): Promise<string | undefined> {
  const ingest = await identity(join(dataDirectory, ingestManifestFileName));
  if (ingest === undefined) return undefined;
  // The index's own manifest file (search-port's `manifest.json`): one per committed generation.
  const index = (await identity(join(localIndexDirectory(dataDirectory), "manifest.json"))) ?? "none";
  return `ingest ${ingest}; index ${index}; records ${records}; common ${commonTermShare}/${commonTermRecords}; layout ${l0SnapshotVersion}; ${analyzerVersion}`;
}

async function identity(path: string): Promise<string | undefined> {
  try {
    const found = await stat(path, { bigint: true });
    return `${found.ino}:${found.size}:${found.mtimeNs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
