import { describeValue } from "@lookup-knowledge/core";
import { EmbedderMismatchError } from "../errors/embedder-mismatch-error.js";
import type { EmbedderIdentity } from "../port/local-search-port.js";
import { describeRowKind, isEmbeddedRow } from "./embedded-row.js";
import type { EmbeddedRow } from "./embedded-row.js";

/**
 * The vectors of one `embedDocuments` answer for `count` texts, checked against the index's
 * embedder: one vector per text, each a `number[]`, `Float32Array` or `Float64Array` of its
 * dimension holding only finite numbers. Otherwise `EmbedderMismatchError`, saying what came
 * back. The rows are returned as given (a typed row is not copied).
 */
export function checkEmbeddedVectors(answer: unknown, count: number, directory: string, embedder: EmbedderIdentity): EmbeddedRow[] {
  const mismatch = (reason: string): EmbedderMismatchError =>
    new EmbedderMismatchError({ directory, indexEmbedder: embedder, givenEmbedder: embedder, reason });
  if (!Array.isArray(answer) || answer.length !== count) {
    throw mismatch(`embedDocuments returned ${Array.isArray(answer) ? answer.length : "no"} vectors for ${count} texts`);
  }
  for (let row = 0; row < answer.length; row += 1) {
    const vector: unknown = answer[row];
    if (!isEmbeddedRow(vector)) {
      throw mismatch(
        `embedDocuments returned a vector of type ${describeRowKind(vector)} (vector ${row} of ${count}), not an array of numbers, a Float32Array or a Float64Array`,
      );
    }
    if (vector.length !== embedder.dimension) {
      throw mismatch(`embedDocuments returned a vector of ${vector.length} dimensions, not ${embedder.dimension}`);
    }
    const position = firstNonFinite(vector);
    if (position >= 0) {
      throw mismatch(
        `embedDocuments returned a vector holding ${describeValue(vector[position])} at position ${position} (vector ${row} of ${count}), not a finite number`,
      );
    }
  }
  return answer as EmbeddedRow[];
}

/** The position of the first value of `vector` that is not a finite number, or -1. */
function firstNonFinite(vector: EmbeddedRow): number {
  if (Array.isArray(vector)) {
    for (let index = 0; index < vector.length; index += 1) {
      const value: unknown = vector[index];
      // `value - value` is 0 for a finite number only (NaN and +-Infinity give NaN).
      if (typeof value !== "number" || value - value !== 0) return index;
    }
    return -1;
  }
  for (let index = 0; index < vector.length; index += 1) {
    const value = vector[index] as number;
    if (value - value !== 0) return index;
  }
  return -1;
}
