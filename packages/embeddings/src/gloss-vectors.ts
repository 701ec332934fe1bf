import { CorruptWordTableError } from "./corrupt-word-table-error.js";
import { chineseWordWeights } from "./chinese-word-weights.js";
import { frequencyWeight } from "./frequency-weight.js";
import { loadGlossTable, type GlossTable } from "./load-gloss-table.js";
import type { WordTable } from "./load-word-table.js";

/**
 * SHA-256 of the `data/glosses.bin` and `data/gloss-words.txt` that method version 2 was
 * built with. A rebuilt table gives other vectors, so it must come with a new method version;
 * a test holds them together.
 */
export const pinnedGlossTableSha256 = Object.freeze({
  "glosses.bin": "79876a512c61e2bcd2312da4edf43c1d570ac5c00c26b9dcd796ede6b26e2283",
  "gloss-words.txt": "8e0cb59c074ec12274669fdacb47e6b0d764fe8ad9d1f444197ac6234183d201",
  "traditional-characters.txt": "735241f6e18685c59e469c06b4c2fc658998447a2b42d10eda84629ef20d3c62",
});

/** The most headwords whose vectors are kept (the cache starts over past it; 100 float32 each). */
const cachedHeadwords = 30_000;

/**
 * The word vectors of Chinese headwords: the frequency-weighted word vectors of the English
 * words of a headword's gloss (`GlossTable.ranksOf`), their weights shared among them (one in
 * all, so a word with a long definition weighs no more than one with a short one). Each is
 * worked out once and kept.
 */
export class GlossVectors {
  private readonly vectors = new Map<string, Float32Array | null>();

  private constructor(
    private readonly glosses: GlossTable,
    private readonly words: WordTable,
  ) {}

  /**
   * The gloss table as version 2 of the embedder was built on, loaded and checked against
   * the pinned checksums and against the word table its ranks point into.
   */
  static load(words: WordTable, version: string): GlossVectors {
    const table = loadGlossTable();
    for (const [file, sha256] of [
      ["glosses.bin", table.glossesSha256],
      ["gloss-words.txt", table.headwordsSha256],
      ["traditional-characters.txt", table.traditionalSha256],
    ] as const) {
      if (sha256 !== pinnedGlossTableSha256[file]) {
        throw new CorruptWordTableError({ file, reason: `is not the table method version ${version} was built with (SHA-256 ${sha256})` });
      }
    }
    const wordsSha256 = words.manifest.files["words.txt"]?.sha256;
    if (table.wordsSha256 !== wordsSha256) {
      throw new CorruptWordTableError({
        file: "gloss-table.json",
        reason: `points into words.txt ${table.wordsSha256}, but the word table's words.txt is ${String(wordsSha256)}`,
      });
    }
    return new GlossVectors(table, words);
  }

  /**
   * Adds to `dense` the vectors of the Chinese words of `runs` (`chineseWordWeights`), each
   * times its weight; returns how many words the table held. Traditional characters are
   * made simplified first: jieba's dictionary is simplified, and cuts traditional text into
   * pieces the table does not hold.
   */
  addTo(dense: Float64Array, runs: readonly string[], mode: "query" | "document"): number {
    let added = 0;
    const simplifiedRuns = runs.map((run) => this.glosses.simplified(run));
    for (const [word, weight] of chineseWordWeights(simplifiedRuns, mode)) {
      const vector = this.of(word);
      if (vector === undefined) continue;
      added += 1;
      for (let column = 0; column < dense.length; column += 1) {
        dense[column] = (dense[column] as number) + weight * (vector[column] as number);
      }
    }
    return added;
  }

  /** The headword's vector, or `undefined` when the gloss table does not hold it. */
  of(headword: string): Float32Array | undefined {
    const known = this.vectors.get(headword);
    if (known !== undefined) return known ?? undefined;
    const ranks = this.glosses.ranksOf(headword);
    let vector: Float32Array | null = null;
    if (ranks !== undefined) {
      const { dimension, scales, values } = this.words;
      const sum = new Float64Array(dimension);
      for (const rank of ranks) {
        const weight = (frequencyWeight(rank) * (scales[rank] as number)) / ranks.length;
        const offset = rank * dimension;
        for (let column = 0; column < dimension; column += 1) {
          sum[column] = (sum[column] as number) + weight * (values[offset + column] as number);
        }
      }
      vector = Float32Array.from(sum);
    }
    if (this.vectors.size >= cachedHeadwords) this.vectors.clear();
    this.vectors.set(headword, vector);
    return vector ?? undefined;
  }
}
