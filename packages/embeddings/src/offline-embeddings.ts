import { ConfigurationError, LookupKnowledgeError, describeValue } from "@lookup-knowledge/core";
import type { EmbeddingsErrorCode } from "./embeddings-error-code.js";
import { Embeddings } from "@langchain/core/embeddings";
import type { EmbedderIdentity } from "./embedder-identity.js";
import { embeddingTerms, stemWord } from "@lookup-knowledge/text";
import { featureHash } from "./feature-hash.js";
import { CorruptWordTableError } from "./corrupt-word-table-error.js";
import { loadWordTable } from "./load-word-table.js";
import type { WordTable } from "./load-word-table.js";
import { frequencyWeight } from "./frequency-weight.js";
import { GlossVectors } from "./gloss-vectors.js";

export interface OfflineEmbeddingsOptions {
  /** Buckets for the hashed lexical features: an integer from 16 to 65536. Default 256. */
  hashDimension?: number;
  /**
   * Share of the cosine that comes from the lexical part, from 0 to 1; the rest comes from the
   * word vectors. Default 0.5.
   */
  lexicalWeight?: number;
  /**
   * Give Chinese words the word vectors of their English dictionary glosses (CC-CEDICT), so
   * Chinese text gets a semantic part in the same space as English. Default true (method
   * version 2). `false` gives the vectors of method version 1, which had no semantic part
   * for Chinese: the embedder of indexes built before it.
   */
  chineseGlosses?: boolean;
}

const embedderId = "lookup-knowledge/offline-hash-glove";
/** Version 2 gives Chinese words the vectors of their glosses; version 1 (`chineseGlosses: false`) did not. */
const methodVersion = "2";
const methodVersionWithoutGlosses = "1";
const defaultHashDimension = 256;
const defaultLexicalWeight = 0.5;

/**
 * SHA-256 of the `data/word-vectors.bin` that method version 1 was built with. A rebuilt table
 * gives other vectors, so it must come with a new `methodVersion`; a test holds the two together.
 */
export const pinnedWordVectorsSha256 = "37cb03bf54cda5da83ab978bd6f4d5215d1de2020f38a260a3d4470db8905e2b";

/** Weight of a word bigram relative to the geometric mean of its two words. */
const bigramFactor = 0.5;

/** A word's rank in the table (-1: not in it), its frequency weight, its stem and its lexical feature. */
interface WordFeatures {
  rank: number;
  weight: number;
  stem: string;
  feature: string;
}

/** The most words whose features are kept (the cache starts over past it). */
const wordFeaturesLimit = 100_000;
/** Words longer than this (UTF-16 code units) are worked out every time, not kept. */
const cachedWordLength = 64;
/** The lexical feature an empty text (no words, no CJK) is given, so that its vector is not zero. */
const emptyTextFeature = "\u0000empty-text";

type Mode = "query" | "document";

/**
 * The offline default embedder: hashed lexical features (Porter-stemmed word unigrams and
 * bigrams, CJK character bigrams) joined with averaged GloVe word vectors from the compact
 * table in `data/`. No network, no model download; a LangChain `Embeddings`, so any other
 * `Embeddings` can take its place. See the README for how a vector is built.
 */
export class OfflineEmbeddings extends Embeddings {
  readonly identity: EmbedderIdentity;
  readonly hashDimension: number;
  readonly lexicalWeight: number;
  readonly chineseGlosses: boolean;
  private readonly table: WordTable;
  /** Loaded on the first text with CJK characters (undefined until then, or without glosses). */
  private glosses: GlossVectors | undefined;
  private readonly commonDirection: Float64Array;
  private readonly features = new Map<string, WordFeatures>();
  private readonly lexicalScale: number;
  private readonly denseScale: number;

  constructor(options: OfflineEmbeddingsOptions = {}) {
    super({});
    this.hashDimension = checkHashDimension(options.hashDimension);
    this.lexicalWeight = checkLexicalWeight(options.lexicalWeight);
    this.chineseGlosses = checkChineseGlosses(options.chineseGlosses);
    this.table = loadWordTable();
    if (this.table.vectorsSha256 !== pinnedWordVectorsSha256) {
      throw new CorruptWordTableError({
        file: "word-vectors.bin",
        reason: `is not the table version ${methodVersion} of ${embedderId} was built with (SHA-256 ${this.table.vectorsSha256})`,
      });
    }
    this.commonDirection = this.table.commonDirection;
    this.lexicalScale = Math.sqrt(this.lexicalWeight);
    this.denseScale = Math.sqrt(1 - this.lexicalWeight);
    const customised = this.hashDimension !== defaultHashDimension || this.lexicalWeight !== defaultLexicalWeight;
    const method = this.chineseGlosses ? methodVersion : methodVersionWithoutGlosses;
    this.identity = {
      id: embedderId,
      version: customised ? `${method};hashDimension=${this.hashDimension};lexicalWeight=${this.lexicalWeight}` : method,
      dimension: this.hashDimension + this.table.dimension,
    };
  }

  /**
   * Embeds a search query. Each distinct term counts once: a question that repeats a word
   * ("limit ... limit") is not pulled towards that word.
   */
  async embedQuery(text: string): Promise<number[]> {
    const output = new Array<number>(this.identity.dimension).fill(0);
    this.embedInto(text, "query", output, 0);
    return output;
  }

  /**
   * Embeds documents. A term repeated `n` times counts `1 + ln n`: repetition raises a term's
   * weight, sublinearly, and the final L2 normalisation removes the effect of length.
   */
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((text) => {
      const output = new Array<number>(this.identity.dimension).fill(0);
      this.embedInto(text, "document", output, 0);
      return output;
    });
  }

  /**
   * The vectors of `embedDocuments`, as `Float32Array` rows: views into one buffer for the
   * whole batch, written straight into it (no `number[]` per text). Each value is the
   * `embedDocuments` one rounded to float32 (`Math.fround`). The local index's writer calls
   * this when an embedder has it; LangChain callers keep `embedDocuments`.
   */
  async embedDocumentRows(texts: string[]): Promise<Float32Array[]> {
    const dimension = this.identity.dimension;
    const buffer = new Float32Array(texts.length * dimension);
    return texts.map((text, row) => {
      this.embedInto(text, "document", buffer, row * dimension);
      return buffer.subarray(row * dimension, (row + 1) * dimension);
    });
  }

  /** What a word gives, worked out once per word (a text repeats its words, and so do texts). */
  private wordFeatures(word: string): WordFeatures {
    const known = this.features.get(word);
    if (known !== undefined) return known;
    const rank = this.table.rankOf(word);
    const stem = stemWord(word);
    const features: WordFeatures = { rank, weight: frequencyWeight(rank), stem, feature: `w\u0001${stem}` };
    // A very long "word" (a hash, base64, a minified line) is rare: it is not kept.
    if (word.length > cachedWordLength) return features;
    if (this.features.size >= wordFeaturesLimit) this.features.clear();
    this.features.set(word, features);
    return features;
  }

  /** The gloss vectors, loaded on the first text with CJK characters. */
  private glossVectors(): GlossVectors {
    this.glosses ??= GlossVectors.load(this.table, methodVersion);
    return this.glosses;
  }

  /**
   * The word-vector part before its scaling: the frequency-weighted vectors of the words the
   * table holds (`counts`, by rank) and of the Chinese words of `cjkRuns` (their glosses),
   * with the common direction removed; `hasWords`: whether any word gave a vector.
   */
  private wordVectorPart(
    counts: ReadonlyMap<number, number>,
    cjkRuns: readonly string[],
    mode: Mode,
  ): { dense: Float64Array; denseNormSquared: number; hasWords: boolean } {
    const wordDimension = this.table.dimension;
    const dense = new Float64Array(wordDimension);
    const { scales, values } = this.table;
    for (const [rank, count] of counts) {
      const frequency = mode === "document" ? 1 + Math.log(count) : 1;
      const weight = frequencyWeight(rank) * frequency * (scales[rank] as number);
      const offset = rank * wordDimension;
      for (let column = 0; column < wordDimension; column += 1) {
        dense[column] = (dense[column] as number) + weight * (values[offset + column] as number);
      }
    }
    // Chinese words add the vectors of their English glosses.
    const glossedWords = cjkRuns.length > 0 && this.chineseGlosses ? this.glossVectors().addTo(dense, cjkRuns, mode) : 0;
    // Averaged word vectors share one large common direction; removing it spreads them out.
    let projection = 0;
    for (let column = 0; column < wordDimension; column += 1) {
      projection += (dense[column] as number) * (this.commonDirection[column] as number);
    }
    let denseNormSquared = 0;
    for (let column = 0; column < wordDimension; column += 1) {
      const value = (dense[column] as number) - projection * (this.commonDirection[column] as number);
      dense[column] = value;
      denseNormSquared += value * value;
    }
    return { dense, denseNormSquared, hasWords: counts.size > 0 || glossedWords > 0 };
  }

  /**
   * Writes the vector of `text` into `output` from `offset` (`dimension` values, every one of
   * them written): a `number[]` for LangChain's answers, a typed buffer for typed rows.
   */
  private embedInto(text: string, mode: Mode, output: number[] | Float32Array, offset: number): void {
    if (typeof text !== "string") {
      throw new LookupKnowledgeError<EmbeddingsErrorCode>({
        code: "invalid_embedding_input",
        message: `OfflineEmbeddings: text must be a string (got ${describeValue(text)})`,
      });
    }
    const { words, continuesPhrase, cjkGrams, cjkRuns } = embeddingTerms(text);
    const lexicalTerms = new Map<string, { count: number; weight: number }>();
    const addLexical = (feature: string, weight: number) => {
      const entry = lexicalTerms.get(feature);
      if (entry === undefined) lexicalTerms.set(feature, { count: 1, weight });
      else {
        entry.count += 1;
        entry.weight += weight;
      }
    };
    const denseCounts = new Map<number, number>();

    let previousStem = "";
    let previousWeight = 0;
    for (let position = 0; position < words.length; position += 1) {
      const { rank, weight, stem, feature } = this.wordFeatures(words[position] as string);
      addLexical(feature, weight);
      if (continuesPhrase[position] === true) {
        addLexical(`b\u0001${previousStem}\u0001${stem}`, bigramFactor * Math.sqrt(previousWeight * weight));
      }
      previousStem = stem;
      previousWeight = weight;
      if (rank >= 0) denseCounts.set(rank, (denseCounts.get(rank) ?? 0) + 1);
    }
    for (const gram of cjkGrams) addLexical(`c\u0001${gram}`, 1);

    const hashDimension = this.hashDimension;
    const lexical = new Float64Array(hashDimension);
    for (const [feature, { count, weight }] of lexicalTerms) {
      const value = (weight / count) * (mode === "document" ? 1 + Math.log(count) : 1);
      const hash = featureHash(feature);
      const bucket = bucketOf(hash, hashDimension);
      lexical[bucket] = (lexical[bucket] as number) + (hash & 1 ? -value : value);
    }
    let lexicalNormSquared = 0;
    for (const value of lexical) lexicalNormSquared += value * value;

    const wordDimension = this.table.dimension;
    const { dense, denseNormSquared, hasWords } = this.wordVectorPart(denseCounts, cjkRuns, mode);

    const hasLexical = lexicalNormSquared > 1e-24;
    const hasDense = hasWords && denseNormSquared > 1e-24;
    const dimension = hashDimension + wordDimension;
    if (!hasLexical && !hasDense) {
      // Nothing to go on (empty text, only punctuation): a fixed unit vector instead of zeros,
      // which stores reject and cosine turns into NaN. All such texts match each other.
      const one = bucketOf(featureHash(emptyTextFeature), hashDimension);
      for (let position = 0; position < dimension; position += 1) output[offset + position] = position === one ? 1 : 0;
      return;
    }
    // Each part is made unit length, then weighted so that the cosine of two vectors is
    // `lexicalWeight * lexical cosine + (1 - lexicalWeight) * word-vector cosine`. A text with
    // only one part (CJK only, or no word the table holds) is that part alone.
    const lexicalShare = hasDense ? this.lexicalScale : 1;
    const denseShare = hasLexical ? this.denseScale : 1;
    const lexicalFactor = hasLexical ? lexicalShare / Math.sqrt(lexicalNormSquared) : 0;
    const denseFactor = hasDense ? denseShare / Math.sqrt(denseNormSquared) : 0;
    // The joined vector, then its final L2 normalisation, in float64 whatever `output` holds.
    const joined = new Float64Array(dimension);
    for (let bucket = 0; bucket < hashDimension; bucket += 1) joined[bucket] = (lexical[bucket] as number) * lexicalFactor;
    for (let column = 0; column < wordDimension; column += 1) {
      joined[hashDimension + column] = (dense[column] as number) * denseFactor;
    }
    let norm = 0;
    for (const value of joined) norm += value * value;
    norm = Math.sqrt(norm);
    for (let position = 0; position < dimension; position += 1) output[offset + position] = (joined[position] as number) / norm;
  }
}

/** The bucket of a hash: its high bits scaled to `buckets` (the low bit gives the sign). */
function bucketOf(hash: number, buckets: number): number {
  return Math.floor((hash / 4294967296) * buckets);
}

function checkHashDimension(value: number | undefined): number {
  if (value === undefined) return defaultHashDimension;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 16 || value > 65_536) {
    throw new ConfigurationError({ key: "hashDimension", value, reason: "must be an integer from 16 to 65536" });
  }
  return value;
}

function checkChineseGlosses(value: boolean | undefined): boolean {
  if (value === undefined) return true;
  if (typeof value !== "boolean") throw new ConfigurationError({ key: "chineseGlosses", value, reason: "must be true or false" });
  return value;
}

function checkLexicalWeight(value: number | undefined): number {
  if (value === undefined) return defaultLexicalWeight;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new ConfigurationError({ key: "lexicalWeight", value, reason: "must be a number from 0 to 1" });
  }
  return value;
}
