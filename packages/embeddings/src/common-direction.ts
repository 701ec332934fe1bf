import type { WordTable } from "./load-word-table.js";
import { commonRank } from "./frequency-weight.js";

/**
 * The direction every averaged text vector leans towards: the sum of all word vectors, each
 * weighted by its expected frequency (Zipf: proportional to 1 / (rank + 1)) and by its
 * frequency down-weighting, as a unit vector.
 */
const commonDirections = new WeakMap<WordTable, Float64Array>();
export function commonDirectionOf(table: WordTable): Float64Array {
  const known = commonDirections.get(table);
  if (known !== undefined) return known;
  const direction = new Float64Array(table.dimension);
  for (let rank = 0; rank < table.wordCount; rank += 1) {
    const weight = (1 / (rank + 1)) * ((rank + 1) / (rank + 1 + commonRank)) * (table.scales[rank] as number);
    const offset = rank * table.dimension;
    for (let column = 0; column < table.dimension; column += 1) {
      direction[column] = (direction[column] as number) + weight * (table.values[offset + column] as number);
    }
  }
  let norm = 0;
  for (const value of direction) norm += value * value;
  norm = Math.sqrt(norm);
  for (let column = 0; column < table.dimension; column += 1) direction[column] = (direction[column] as number) / norm;
  commonDirections.set(table, direction);
  return direction;
}
