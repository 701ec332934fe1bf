import type { DenseMatrix } from "../dense/dense-matrix.js";
import { firstScanRunsAlone } from "../dense/dense-scan-helper.js";
import { emptySnapshot, snapshotHasVectors } from "../snapshot/index-snapshot.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { composedRecordTable } from "./composed-record-table.js";
import { composedVectors } from "./composed-vectors.js";
import { streamedComposedVectors } from "./streamed-composed-vectors.js";
import type { SegmentPart } from "./segment-part.js";
import { SegmentedKeys } from "./segmented-keys.js";
import { SegmentedLexicon } from "./segmented-lexicon.js";
import { SlotMap } from "./slot-map.js";

/**
 * Several segments as one index: a snapshot that every search (`searchSnapshot`, scopes,
 * `termShare`, fetches, a writer's merge) takes for a single snapshot holding only the live
 * (not deleted) records of `parts`, part by part in the given order, within a part in its
 * slot order. Term statistics count those records only, so every score, hit, tie and
 * answerability signal is the one a single index of them gives. Searches read each part's
 * postings in place (`SegmentedLexicon.pieces`); keys, lengths and vectors are gathered from
 * the parts as searches first need them (a process's first dense scan streams them from the
 * parts' files, `streamedVectors`), and a term's postings when a caller asks for one
 * list (`postings`, kept up to a bound). One part without deletions is returned as it is; no
 * parts give an empty snapshot. Closing the result's `records.file` closes every part's files.
 * `options.postingsCacheBytes`: bytes of gathered postings the lexicon keeps (default
 * `composedPostingsCacheBytes`, 16 MB); `options.slots`: the parts' `SlotMap`, when the caller
 * made it already (a writer keeps it to map its lookups' segment slots to composed ones).
 */
export function composeSnapshot(
  parts: readonly SegmentPart[],
  options: { postingsCacheBytes?: number; slots?: SlotMap } = {},
): IndexSnapshot {
  if (parts.length === 0) return emptySnapshot();
  const only = parts[0] as SegmentPart;
  if (parts.length === 1 && (only.deleted === undefined || !only.deleted.includes(1))) return only.snapshot;
  const slots = options.slots ?? new SlotMap(parts);
  let vectors: DenseMatrix | undefined;
  let vectorsBuilt = false;
  let streamed = false;
  return {
    count: slots.count,
    keys: new SegmentedKeys(slots),
    lexicon: new SegmentedLexicon(slots, options.postingsCacheBytes),
    get vectors(): DenseMatrix | undefined {
      if (!vectorsBuilt) {
        vectors = composedVectors(slots);
        vectorsBuilt = true;
      }
      return vectors;
    },
    get hasVectors(): boolean {
      if (vectorsBuilt) return vectors !== undefined;
      return slots.parts.some((part, index) => slots.liveCount(index) > 0 && snapshotHasVectors(part.snapshot));
    },
    streamedVectors(): DenseMatrix | undefined {
      if (vectorsBuilt || streamed || !firstScanRunsAlone(slots.count)) return undefined;
      streamed = true;
      return streamedComposedVectors(slots);
    },
    records: composedRecordTable(slots),
  };
}
