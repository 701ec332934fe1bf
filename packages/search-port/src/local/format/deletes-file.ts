import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { MissingDataFileError } from "../errors/missing-data-file-error.js";
import { isMissing } from "./is-missing.js";
import type { SegmentedManifest } from "./segmented-manifest.js";

/**
 * The bytes of a `deletes` file: for each segment in manifest order, the slots of its
 * deleted records, ascending, as little-endian 32-bit integers (the manifest gives how many
 * each segment has). `deleted[i]` marks segment i's deleted slots (absent: none).
 */
export function encodeDeletes(deleted: ReadonlyArray<Uint8Array | undefined>): Uint8Array {
  let total = 0;
  for (const marks of deleted) if (marks !== undefined) for (const mark of marks) total += mark;
  const slots = new Uint32Array(total);
  let at = 0;
  for (const marks of deleted) {
    if (marks === undefined) continue;
    for (let slot = 0; slot < marks.length; slot += 1) if (marks[slot] === 1) slots[at++] = slot;
  }
  return new Uint8Array(slots.buffer);
}

/**
 * Each segment's deleted slots as marks (undefined for a segment with none), read from the
 * manifest's `deletes` file and checked against its entry and the segments' counts. Throws
 * `CorruptIndexError` when they differ, `MissingDataFileError` when the file is gone.
 */
export function readDeletes(directory: string, manifest: SegmentedManifest): Array<Uint8Array | undefined> {
  const entry = manifest.files.deletes;
  const expected = manifest.segments.reduce((sum, segment) => sum + segment.deleted, 0);
  const fail = (reason: string): never => {
    throw new CorruptIndexError({ directory, reason });
  };
  if (entry === undefined) {
    if (expected > 0) fail(`the manifest counts ${expected} deleted records but lists no deletes file`);
    return manifest.segments.map(() => undefined);
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(directory, entry.name));
  } catch (error) {
    // Gone: a writer may have committed and removed it meanwhile (the caller reads the manifest again).
    if (isMissing(error)) throw new MissingDataFileError(entry.name);
    throw new CorruptIndexError({ directory, reason: `${entry.name} cannot be read`, cause: error });
  }
  if (bytes.length !== entry.bytes || createHash("sha256").update(bytes).digest("hex") !== entry.sha256) {
    fail(`${entry.name} does not match its size or checksum in the manifest`);
  }
  if (bytes.length !== 4 * expected) fail(`${entry.name} does not hold the ${expected} deleted slots the manifest counts`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  return manifest.segments.map((segment, index) => {
    if (segment.deleted === 0) return undefined;
    const marks = new Uint8Array(segment.chunks);
    let previous = -1;
    for (let taken = 0; taken < segment.deleted; taken += 1) {
      const slot = view.getUint32(4 * at++, true);
      if (slot <= previous || slot >= segment.chunks)
        fail(`${entry.name} lists slot ${slot} of segment ${index} out of order or past its end`);
      marks[slot] = 1;
      previous = slot;
    }
    return marks;
  });
}
