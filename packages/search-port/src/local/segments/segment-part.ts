import type { SegmentEntry } from "../format/segmented-manifest.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";

/**
 * One segment of an index as searches see it: its records as written (read from its files
 * or held in memory, slots 0..count-1 of its own), and which of them later commits deleted.
 */
export interface SegmentPart {
  snapshot: IndexSnapshot;
  /** Per slot of `snapshot`, 1 when the record is deleted; absent: none is. Never changed once given. */
  deleted?: Uint8Array | undefined;
}

/** A segment as a port opened or wrote it: its manifest entry (undefined: held in memory, or a generation of format 6 or older, which the next commit writes anew). */
export interface OpenedSegment extends SegmentPart {
  entry: SegmentEntry | undefined;
}
