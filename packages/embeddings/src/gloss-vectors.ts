import { frequencyWeight } from "./frequency-weight.js";
import type { GlossTable } from "./load-gloss-table.js";
import type { WordTable } from "./load-word-table.js";

/** The most headwords whose vectors are kept (the cache starts over past it; 100 numbers each). */
const cachedHeadwords = 50_000;

/**
 * The word vector of a Chinese headword: the frequency-weighted word vectors of the English
 * words of its gloss (`GlossTable.ranksOf`), their weights shared among them (one in all, so
 * a word with a long definition weighs no more than one with a short one). Worked out once
 * per headword and kept.
 */
export class GlossVectors {
  private readonly vectors = new Map<string, Float64Array | null>();

  constructor(
    private readonly glosses: GlossTable,
    private readonly words: WordTable,
  ) {}

  /** The headword's vector, or `undefined` when the gloss table does not hold it. */
  of(headword: string): Float64Array | undefined {
    const known = this.vectors.get(headword);
    if (known !== undefined) return known ?? undefined;
    const ranks = this.glosses.ranksOf(headword);
    let vector: Float64Array | null = null;
    if (ranks !== undefined) {
      const { dimension, scales, values } = this.words;
      vector = new Float64Array(dimension);
      for (const rank of ranks) {
        const weight = (frequencyWeight(rank) * (scales[rank] as number)) / ranks.length;
        const offset = rank * dimension;
        for (let column = 0; column < dimension; column += 1) {
          vector[column] = (vector[column] as number) + weight * (values[offset + column] as number);
        }
      }
    }
    if (this.vectors.size >= cachedHeadwords) this.vectors.clear();
    this.vectors.set(headword, vector);
    return vector ?? undefined;
  }
}
