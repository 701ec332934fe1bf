import { mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { liveSegments, newSegmentName, openSuffix } from "./spool-segment.js";

/** The segment file a spool is appending to. */
export interface OpenSpoolSegment {
  /** The name without suffix (see `spool-segment.ts`). */
  name: string;
  /** The `.open` file. */
  file: string;
  fd: number;
  /** Bytes written into it. */
  bytes: number;
  /** Written since its last fsync. */
  dirty: boolean;
}

/** Creates a new `.open` segment in the spool folder `directory` (made when missing) and adds it to the live set. */
export function openSpoolSegment(directory: string): OpenSpoolSegment {
  mkdirSync(directory, { recursive: true });
  const name = newSegmentName();
  const file = join(directory, `${name}${openSuffix}`);
  const fd = openSync(file, "a", 0o600);
  liveSegments.add(file);
  return { name, file, fd, bytes: 0, dirty: false };
}
