import { DenseMatrix } from "../dense/dense-matrix.js";
import type { SlotMap } from "./slot-map.js";

/**
 * The vectors of a composed snapshot: one matrix holding the live rows of every part in
 * composed slot order, read into it from a part's file or copied in runs (`copyRows`); undefined when no part with a live
 * record has vectors. Each part's vectors are read once, and not kept by a part that reads them from a file. A part
 * without vectors leaves its rows zero (no dense score), as `mergeVectors` does. Parts must
 * share one dimension: an Error names both otherwise.
 */
export function composedVectors(slots: SlotMap): DenseMatrix | undefined {
  // A part with every record live whose vectors are in a file reads them straight into the
  // composed matrix (issue 36 item 5: no matrix of its own, no copy). The others are read
  // without being kept in the part (`readVectors`): the composed matrix holds the rows once.
  const direct = slots.parts.map(
    ({ snapshot }, index) =>
      slots.liveCount(index) > 0 &&
      slots.liveTable(index) === undefined &&
      snapshot.fileVectorDimension !== undefined &&
      snapshot.readVectorsInto !== undefined,
  );
  const matrices = slots.parts.map((part, index) => {
    if (slots.liveCount(index) === 0 || direct[index]) return undefined;
    const { snapshot } = part;
    return snapshot.readVectors === undefined ? snapshot.vectors : snapshot.readVectors();
  });
  let dimension: number | undefined;
  slots.parts.forEach(({ snapshot }, index) => {
    const partDimension = direct[index] ? snapshot.fileVectorDimension : matrices[index]?.dimension;
    if (partDimension === undefined) return;
    if (dimension !== undefined && partDimension !== dimension) {
      throw new Error(`composeSnapshot: part ${index} holds vectors of ${partDimension} dimensions, an earlier part of ${dimension}`);
    }
    dimension = partDimension;
  });
  if (dimension === undefined) return undefined;
  const vectors = new DenseMatrix(slots.count, dimension);
  slots.parts.forEach(({ snapshot }, index) => {
    if (direct[index]) snapshot.readVectorsInto?.(vectors, slots.bases[index] as number);
  });
  matrices.forEach((matrix, index) => {
    if (matrix === undefined) return;
    const base = slots.bases[index] as number;
    const live = slots.liveTable(index);
    if (live === undefined) {
      vectors.copyRows(matrix, 0, base, slots.liveCount(index));
      return;
    }
    // Runs of consecutive live rows, each copied at once.
    for (let at = 0; at < live.length; ) {
      let end = at + 1;
      while (end < live.length && live[end] === (live[end - 1] as number) + 1) end += 1;
      vectors.copyRows(matrix, live[at] as number, base + at, end - at);
      at = end;
    }
  });
  return vectors;
}
