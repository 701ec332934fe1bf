import { createHash } from "node:crypto";
import { errorMessage } from "@lookup-knowledge/core";
import { readIngestManifest, writeFileAtomically } from "@lookup-knowledge/ingest/manifest";
import { snapshotL0Index } from "@lookup-knowledge/l0-hints";
import { l0IndexOptions } from "../common-term-test.js";
import { l0SnapshotFileVersion, l0SnapshotFormat, l0SnapshotPath, type L0SnapshotFileHead } from "./l0-snapshot-file.js";
import { l0SnapshotKey } from "./l0-snapshot-key.js";
import { readL0Snapshot } from "./read-l0-snapshot.js";

/**
 * Writes the L0 snapshot of a data folder (`l0-index.bin`): the L0 index of the entries the
 * ingest manifest lists, with the common-term answers of `port` (the local index as committed),
 * so a lookup opens it instead of reading the manifest and building the index (issue 36 item
 * 5). Written as the manifest is: to a temporary file, flushed, renamed over the old one. Does
 * nothing when the snapshot on disk already stands for the folder as it is, or when there is
 * no manifest; when the folder changes while it is built, nothing is written (a lookup then
 * builds the index from the manifest, as it does for a missing snapshot).
 */
export async function writeL0Snapshot(
  dataDirectory: string,
  port: { termShare(text: string): number; stats(): { chunks: number } },
): Promise<"written" | "current" | "skipped"> {
  const records = port.stats().chunks;
  const key = await l0SnapshotKey(dataDirectory, records);
  if (key === undefined) return "skipped";
  // The whole file checked, not its head alone: a damaged snapshot for this state is written again, as the fallback's warning says.
  if ("body" in (await readL0Snapshot(dataDirectory, key))) return "current";
  const manifest = await readIngestManifest(dataDirectory);
  if (manifest === undefined) return "skipped";
  const entries = Object.values(manifest.documents).map((document) => document.entry);
  const body = snapshotL0Index(entries, l0IndexOptions(port));
  if ((await l0SnapshotKey(dataDirectory, port.stats().chunks)) !== key) return "skipped";
  const head: L0SnapshotFileHead = {
    format: l0SnapshotFormat,
    version: l0SnapshotFileVersion,
    key,
    bytes: body.length,
    sha256: createHash("sha256").update(body).digest("hex"),
  };
  await writeFileAtomically(l0SnapshotPath(dataDirectory), [headLine(head), body]);
  return "written";
}

/**
 * `writeL0Snapshot` after an ingest or optimize committed: the snapshot only spares lookups a
 * build, so a failure to write it is a warning, not a failure of the commit before it (lookups
 * build the L0 index from the manifest until a later ingest writes it).
 */
export async function writeL0SnapshotOrWarn(
  dataDirectory: string,
  port: Parameters<typeof writeL0Snapshot>[1],
  onWarning: (message: string) => void = (message) => console.warn(message),
): Promise<void> {
  try {
    await writeL0Snapshot(dataDirectory, port);
  } catch (error) {
    onWarning(
      `The L0 snapshot was not written (lookups build the L0 index from the ingest manifest until an ingest writes it): ${errorMessage(error)}`,
    );
  }
}

/** The head as one line, padded with spaces to a multiple of 8 bytes, so the body's arrays are read in place. */
function headLine(head: L0SnapshotFileHead): string {
  const text = JSON.stringify(head);
  const bytes = Buffer.byteLength(text) + 1;
  const padding = Math.ceil(bytes / 8) * 8 - bytes;
  return `${text}${" ".repeat(padding)}\n`;
}
