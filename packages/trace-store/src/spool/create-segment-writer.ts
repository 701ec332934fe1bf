import { closeSync, fstatSync, fsyncSync } from "node:fs";
import { openSpoolSegment, type OpenSpoolSegment } from "./open-spool-segment.js";
import { sealSpoolSegment } from "./seal-spool-segment.js";
import { liveSegments } from "./spool-segment.js";
import type { SpoolFsync } from "./trace-spool-options.js";
import { writeSpoolLine } from "./write-spool-line.js";

/** How many times a line is written into a new segment when its segment is removed under it. */
const maxRewrites = 3;

/** A spool's own segment: opened on the first line, sealed when full or closed. */
export interface SegmentWriter {
  /** Bytes appended since the writer was made. */
  readonly appendedBytes: number;
  /**
   * Appends one line, opening a segment when none is open, and seals the segment once it is
   * full. Throws when the line cannot be written.
   */
  writeLine(line: Buffer): void;
  /** fsyncs what was written since the last fsync. */
  flush(): void;
  /** Seals the open segment, if any (see `sealSpoolSegment`). */
  seal(): void;
}

/** The segment writer of the spool folder `directory`. */
export function createSegmentWriter(options: { directory: string; fsync: SpoolFsync; maxSegmentBytes: number }): SegmentWriter {
  const { directory } = options;
  let current: OpenSpoolSegment | undefined;
  let appendedBytes = 0;

  function seal(): void {
    if (!current) return;
    const segment = current;
    current = undefined;
    sealSpoolSegment(segment, directory);
  }

  /** Forgets a segment whose file was removed under it (it holds nothing to seal). */
  function abandon(target: OpenSpoolSegment): void {
    if (current === target) current = undefined;
    liveSegments.delete(target.file);
    try {
      closeSync(target.fd);
    } catch {
      // Closing a removed file's descriptor cannot lose anything.
    }
  }

  /** Seals a full segment; the record is written already, so a failure only leaves the segment open for a flush to take. */
  function rotate(): void {
    try {
      seal();
    } catch {
      // The segment left the live set: a flush takes it as finished, nothing is lost.
    }
  }

  return {
    get appendedBytes(): number {
      return appendedBytes;
    },
    writeLine(line: Buffer): void {
      for (let attempt = 1; ; attempt += 1) {
        current ??= openSpoolSegment(directory);
        const target = current;
        writeSpoolLine(target, line, options.fsync);
        // Removed by a flusher that took its writer for finished (another host or PID
        // namespace, after the idle window): the line may have gone with it, so it is written
        // again into a new segment. A line read twice is inserted once.
        if (fstatSync(target.fd).nlink === 0) {
          abandon(target);
          if (attempt < maxRewrites) continue;
          throw new Error(`the spool segment ${target.file} was removed while being written, ${maxRewrites} times in a row`);
        }
        appendedBytes += line.length;
        if (target.bytes >= options.maxSegmentBytes) rotate();
        return;
      }
    },
    flush(): void {
      if (current?.dirty) {
        fsyncSync(current.fd);
        current.dirty = false;
      }
    },
    seal,
  };
}
