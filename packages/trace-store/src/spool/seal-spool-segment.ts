import { closeSync, fsyncSync, renameSync } from "node:fs";
import { join } from "node:path";
import { TraceStoreError } from "../errors/trace-store-error.js";
import type { OpenSpoolSegment } from "./open-spool-segment.js";
import { liveSegments, sealedSuffix } from "./spool-segment.js";

/**
 * fsyncs, closes and renames `segment` (of the spool folder `directory`) to `.jsonl`. A
 * segment already gone (a flusher took it for finished and removed it) is no error; any other
 * failure throws `TraceStoreError` once the segment is closed and out of the live set, so a
 * flush takes it.
 */
export function sealSpoolSegment(segment: OpenSpoolSegment, directory: string): void {
  let failure: unknown;
  try {
    if (segment.dirty) fsyncSync(segment.fd);
  } catch (error) {
    failure = error;
  }
  try {
    closeSync(segment.fd);
  } catch (error) {
    failure ??= error;
  }
  try {
    // Sealed before it leaves the live set, so a flusher never takes an open file for a dead one.
    renameSync(segment.file, join(directory, `${segment.name}${sealedSuffix}`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") failure ??= error;
  } finally {
    liveSegments.delete(segment.file);
  }
  if (failure !== undefined) {
    throw new TraceStoreError({
      code: "trace_spool_write_failed",
      message: `Could not seal the trace spool segment ${segment.file}: ${(failure as Error)?.message ?? String(failure)}. It stays as it is and a flush reads it.`,
      location: segment.file,
      cause: failure,
    });
  }
}
