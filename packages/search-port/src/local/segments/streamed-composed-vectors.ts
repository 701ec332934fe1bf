import type { DenseMatrix } from "../dense/dense-matrix.js";
import { streamedMatrix } from "../dense/streamed-matrix.js";
import type { StreamedPiece } from "../dense/streamed-matrix.js";
import type { SlotMap } from "./slot-map.js";

/**
 * The vectors of a composed snapshot as a streamed matrix (issue 36 item 5: a first dense scan
 * reads each segment's file chunk by chunk, not all of them into one matrix first), when
 * every part with a live record keeps its vectors in a file of one dimension and has no
 * deleted record (its rows are then composed slots `base..` as they are in the file);
 * undefined otherwise (`composedVectors` then).
 */
export function streamedComposedVectors(slots: SlotMap): DenseMatrix | undefined {
  const pieces: StreamedPiece[] = [];
  for (let index = 0; index < slots.parts.length; index += 1) {
    if (slots.liveCount(index) === 0) continue;
    const file = (slots.parts[index] as (typeof slots.parts)[number]).snapshot.vectorRows;
    if (file === undefined || slots.liveTable(index) !== undefined) return undefined;
    if (pieces.length > 0 && (pieces[0] as StreamedPiece).file.dimension !== file.dimension) return undefined;
    pieces.push({ file, firstRow: slots.bases[index] as number });
  }
  if (pieces.length === 0) return undefined;
  return streamedMatrix(pieces, slots.count, (pieces[0] as StreamedPiece).file.dimension);
}
