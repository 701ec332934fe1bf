import { fsyncSync, writeSync } from "node:fs";
import type { OpenSpoolSegment } from "./open-spool-segment.js";
import type { SpoolFsync } from "./trace-spool-options.js";

/** Writes one whole line (a short write, rare on a local file, is completed) into `segment`; fsyncs it with `always`. */
export function writeSpoolLine(segment: OpenSpoolSegment, line: Buffer, fsync: SpoolFsync): void {
  let written = 0;
  while (written < line.length) written += writeSync(segment.fd, line, written, line.length - written);
  segment.bytes += line.length;
  segment.dirty = true;
  if (fsync === "always") {
    fsyncSync(segment.fd);
    segment.dirty = false;
  }
}
