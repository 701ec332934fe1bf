import { LookupKnowledgeError, describeValue } from "@lookup-knowledge/core";
import type { EmbeddingsErrorCode } from "./embeddings-error-code.js";
import { Embeddings } from "@langchain/core/embeddings";
import type { EmbedderIdentity } from "./embedder-identity.js";
import { embeddingTerms, stemWord } from "@lookup-knowledge/text";
import { featureHash } from "./feature-hash.js";
import { LexicalFeatures, bucketOf } from "./lexical-features.js";
import type { LexicalSlot } from "./lexical-features.js";
import { CorruptWordTableError } from "./corrupt-word-table-error.js";
import { loadWordTable } from "./load-word-table.js";
import type { WordTable } from "./load-word-table.js";
import {
  checkChineseGlosses,
  checkHashDimension,
  checkLexicalWeight,
  checkThread,
  defaultHashDimension,
  defaultLexicalWeight,
} from "./check-embedder-options.js";
import { EmbeddingThread } from "./embedding-thread.js";
import { frequencyWeight } from "./frequency-weight.js";
import { GlossVectors } from "./gloss-vectors.js";
import { VectorArithmetic, writeDivided } from "./vector-arithmetic.js";

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
  /**
   * Work the vectors of a batch of documents (at least `threadBatchTexts` of them) out on a
   * worker thread (one per process and options), so the caller goes on meanwhile (an ingest parses
   * the next files while the previous ones are embedded): the same vectors, bit for bit. The
   * thread starts at the first such batch and keeps the process alive only while it has work;
   * where it cannot run (the TypeScript sources, a bundle without its script) or once it
   * failed, documents are embedded on the calling thread. Queries always are. Default false:
   * on the 2-core machine it was measured on it did not pay (`checkThread`).
   */
  thread?: boolean;
}

/** The fewest texts a call sends to the embedding thread: fewer are embedded at once, here. */
export const threadBatchTexts = 32;

const embedderId = "lookup-knowledge/offline-hash-glove";
/** Version 2 gives Chinese words the vectors of their glosses; version 1 (`chineseGlosses: false`) did not. */
const methodVersion = "2";
const methodVersionWithoutGlosses = "1";

/**
 * SHA-256 of the `data/word-vectors.bin` that method version 1 was built with. A rebuilt table
 * gives other vectors, so it must come with a new `methodVersion`; a test holds the two together.
 */
export const pinnedWordVectorsSha256 = "37cb03bf54cda5da83ab978bd6f4d5215d1de2020f38a260a3d4470db8905e2b";

/**
 * SHA-256 of the block list that `data/word-table.json` records for that file (`blockListSha256`):
 * the blocks are checked as texts need them, so the list is held to the same version.
 */
export const pinnedWordVectorBlocksSha256 = "4aaa22615b78ed3016596c1bcca1c5c57a28543214e395bbfea83e307e9d421f";

/** Weight of a word bigram relative to the geometric mean of its two words. */
const bigramFactor = 0.5;

/** A word's rank in the table (-1: not in it), its frequency weight, its stem and its stem's lexical feature. */
interface WordFeatures {
  rank: number;
  weight: number;
  stem: string;
  slot: LexicalSlot;
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
  // Working space of `embedInto`, kept between texts (a text is embedded at once, never two together).
  private readonly lexical: LexicalFeatures;
  /** The float arithmetic, on a WebAssembly kernel where it can run, and its working arrays. */
  private readonly arithmetic: VectorArithmetic;
  /** The ranks of the table's words in the current text, in the order of their first occurrence. */
  private readonly ranks: number[] = [];
  /** By rank: its count in the text `rankTexts` names (a count from another text is stale). */
  private readonly rankCounts: Int32Array;
  private readonly rankTexts: Int32Array;
  private textNumber = 0;
  /** Whether documents go to a thread; the thread, once started (null: it cannot run here). */
  private readonly useThread: boolean;
  private thread: EmbeddingThread | null | undefined;

  constructor(options: OfflineEmbeddingsOptions = {}) {
    super({});
    this.hashDimension = checkHashDimension(options.hashDimension);
    this.lexicalWeight = checkLexicalWeight(options.lexicalWeight);
    this.chineseGlosses = checkChineseGlosses(options.chineseGlosses);
    this.useThread = checkThread(options.thread);
    this.table = loadWordTable();
    const blocks = this.table.vectorsBlocksSha256;
    if (this.table.vectorsSha256 !== pinnedWordVectorsSha256 || (blocks !== "" && blocks !== pinnedWordVectorBlocksSha256)) {
      throw new CorruptWordTableError({
        file: "word-vectors.bin",
        reason: `is not the table version ${methodVersion} of ${embedderId} was built with (SHA-256 ${this.table.vectorsSha256}, block list ${blocks || "none"})`,
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
    this.lexical = new LexicalFeatures(this.hashDimension, cachedWordLength);
    this.arithmetic = new VectorArithmetic(this.hashDimension, this.table.dimension, this.table.wordCount, this.commonDirection);
    this.rankCounts = new Int32Array(this.table.wordCount);
    this.rankTexts = new Int32Array(this.table.wordCount);
  }

  /**
   * Embeds a search query. Each distinct term counts once: a question that repeats a word
   * ("limit ... limit") is not pulled towards that word.
   */
  async embedQuery(text: string): Promise<number[]> {
    return this.vectorOf(text, "query");
  }

  /**
   * Embeds documents. A term repeated `n` times counts `1 + ln n`: repetition raises a term's
   * weight, sublinearly, and the final L2 normalisation removes the effect of length.
   */
  async embedDocuments(texts: string[]): Promise<number[][]> {
    const dimension = this.identity.dimension;
    const vectors = await this.onThread(texts, "float64");
    if (vectors !== undefined) return texts.map((_, row) => Array.from(vectors.subarray(row * dimension, (row + 1) * dimension)));
    this.arithmetic.startKernel();
    return texts.map((text) => this.vectorOf(text, "document"));
  }

  /**
   * The vectors of `embedDocuments`, as `Float32Array` rows: views into one buffer for the
   * whole batch, written straight into it (no `number[]` per text). Each value is the
   * `embedDocuments` one rounded to float32 (`Math.fround`). The local index's writer calls
   * this when an embedder has it; LangChain callers keep `embedDocuments`.
   */
  async embedDocumentRows(texts: string[]): Promise<Float32Array[]> {
    const dimension = this.identity.dimension;
    const buffer = (await this.onThread(texts, "float32")) ?? this.embedDocumentsInto(texts, "float32");
    return texts.map((_, row) => buffer.subarray(row * dimension, (row + 1) * dimension) as Float32Array);
  }

  /**
   * The document vectors of `texts` worked out here, at once, one after another in one
   * buffer: float32 values (those of `embedDocumentRows`) or float64 ones (`embedDocuments`).
   * What the embedding thread runs.
   */
  embedDocumentsInto(texts: readonly string[], precision: "float32" | "float64"): Float32Array | Float64Array {
    const dimension = this.identity.dimension;
    this.arithmetic.startKernel();
    if (precision === "float64") {
      const buffer = new Float64Array(texts.length * dimension);
      for (let row = 0; row < texts.length; row += 1) {
        writeDivided(this.arithmetic.joined, this.embedInto(texts[row] as string, "document"), buffer, row * dimension);
      }
      return buffer;
    }
    const buffer = new Float32Array(texts.length * dimension);
    for (let row = 0; row < texts.length; row += 1) {
      this.arithmetic.writeRow(this.embedInto(texts[row] as string, "document"), buffer, row * dimension);
    }
    return buffer;
  }

  /**
   * The document vectors of `texts` from the embedding thread, or undefined when they are to
   * be worked out here: a small batch, no thread, or a thread that failed (then it is not
   * asked again). A text that is not a string is refused here, as the calling thread would.
   */
  private async onThread(texts: string[], precision: "float32" | "float64"): Promise<Float32Array | Float64Array | undefined> {
    if (!this.useThread || this.thread === null || texts.length < threadBatchTexts) return undefined;
    for (const text of texts) if (typeof text !== "string") throw notText(text);
    this.thread ??=
      EmbeddingThread.shared({
        hashDimension: this.hashDimension,
        lexicalWeight: this.lexicalWeight,
        chineseGlosses: this.chineseGlosses,
      }) ?? null;
    if (this.thread === null || this.thread.failed) return undefined;
    try {
      return await this.thread.embed(texts, precision);
    } catch {
      // The thread failed (it could not start, or died): this call and the next embed here.
      this.thread = null;
      return undefined;
    }
  }

  /** The vector of `text` as a `number[]`. */
  private vectorOf(text: string, mode: Mode): number[] {
    const norm = this.embedInto(text, mode);
    const output = new Array<number>(this.identity.dimension);
    writeDivided(this.arithmetic.joined, norm, output, 0);
    return output;
  }

  /** What a word gives, worked out once per word (a text repeats its words, and so do texts). */
  private wordFeatures(word: string): WordFeatures {
    const known = this.features.get(word);
    if (known !== undefined) return known;
    const rank = this.table.rankOf(word);
    const stem = stemWord(word);
    const features: WordFeatures = { rank, weight: frequencyWeight(rank), stem, slot: this.lexical.stemSlot(stem) };
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
   * The word-vector part before its scaling, into `this.dense`: the frequency-weighted vectors
   * of the words the table holds (`this.ranks`, with their counts, in the order of their first
   * occurrence) and of the Chinese words of `cjkRuns` (their glosses), with the common
   * direction removed. Its squared norm, and whether any word gave a vector.
   */
  private wordVectorPart(cjkRuns: readonly string[], mode: Mode): { denseNormSquared: number; hasWords: boolean } {
    const { ranks, rankCounts, arithmetic } = this;
    // Only the blocks that hold these words are read (and checked) from the table's file.
    const { scales, values } = this.table.vectorsOf(ranks);
    const weights = arithmetic.weights;
    for (let index = 0; index < ranks.length; index += 1) {
      const rank = ranks[index] as number;
      const frequency = mode === "document" ? 1 + Math.log(rankCounts[rank] as number) : 1;
      weights[index] = frequencyWeight(rank) * frequency * (scales[rank] as number);
    }
    arithmetic.sumWordVectors(ranks, values);
    // Chinese words add the vectors of their English glosses.
    const glossedWords = cjkRuns.length > 0 && this.chineseGlosses ? this.glossVectors().addTo(arithmetic.dense, cjkRuns, mode) : 0;
    // Averaged word vectors share one large common direction; removing it spreads them out.
    const denseNormSquared = arithmetic.removeCommonDirection();
    return { denseNormSquared, hasWords: ranks.length > 0 || glossedWords > 0 };
  }

  /**
   * Starts a text: the lexical features' counts and the word ranks from nothing (the word
   * cache let go when the features' tables started over). The text's number, which marks the
   * counts in `rankCounts` that are its own.
   */
  private beginText(): number {
    if (this.lexical.begin()) this.features.clear();
    this.ranks.length = 0;
    // Text numbers are int32 in `rankTexts`: before they would wrap (and a stale count look
    // current), every mark is cleared and numbering starts again.
    if (this.textNumber === 0x7fffffff) {
      this.rankTexts.fill(0);
      this.textNumber = 0;
    }
    this.textNumber += 1;
    return this.textNumber;
  }

  /** The hashed lexical part of the current text, before its scaling, into `this.lexicalPart`; its squared norm. */
  private lexicalFeaturePart(mode: Mode): number {
    const lexical = this.arithmetic.lexical;
    lexical.fill(0);
    for (const { bucket, negative, count, weight } of this.lexical.touched) {
      const value = (weight / count) * (mode === "document" ? 1 + Math.log(count) : 1);
      lexical[bucket] = (lexical[bucket] as number) + (negative ? -value : value);
    }
    return this.arithmetic.lexicalNormSquared();
  }

  /**
   * Works the vector of `text` out into `this.joined` (`dimension` values, not yet divided by
   * the norm) and returns its norm: callers divide as they write their own output, a
   * `number[]` for LangChain's answers or a typed buffer for typed rows (each write site of
   * one type, which keeps it fast).
   */
  private embedInto(text: string, mode: Mode): number {
    if (typeof text !== "string") throw notText(text);
    const { words, continuesPhrase, cjkGrams, cjkRuns } = embeddingTerms(text);
    // The distinct lexical features and word ranks, each in the order of its first occurrence.
    const features = this.lexical;
    const { ranks, rankCounts, rankTexts } = this;
    const textNumber = this.beginText();

    let previousStem = "";
    let previousSlot: LexicalSlot | undefined;
    let previousWeight = 0;
    for (let position = 0; position < words.length; position += 1) {
      const { rank, weight, stem, slot } = this.wordFeatures(words[position] as string);
      features.add(slot, weight);
      if (continuesPhrase[position] === true && previousSlot !== undefined) {
        features.add(features.pairSlot(previousStem, previousSlot, stem, slot), bigramFactor * Math.sqrt(previousWeight * weight));
      }
      previousStem = stem;
      previousSlot = slot;
      previousWeight = weight;
      if (rank >= 0) {
        if (rankTexts[rank] !== textNumber) {
          rankTexts[rank] = textNumber;
          rankCounts[rank] = 1;
          ranks.push(rank);
        } else rankCounts[rank] = (rankCounts[rank] as number) + 1;
      }
    }
    for (const gram of cjkGrams) features.add(features.gramSlot(gram), 1);

    const hashDimension = this.hashDimension;
    const lexicalNormSquared = this.lexicalFeaturePart(mode);
    const { denseNormSquared, hasWords } = this.wordVectorPart(cjkRuns, mode);

    const hasLexical = lexicalNormSquared > 1e-24;
    const hasDense = hasWords && denseNormSquared > 1e-24;
    if (!hasLexical && !hasDense) {
      // Nothing to go on (empty text, only punctuation): a fixed unit vector instead of zeros,
      // which stores reject and cosine turns into NaN. All such texts match each other.
      const joined = this.arithmetic.joined;
      joined.fill(0);
      joined[bucketOf(featureHash(emptyTextFeature), hashDimension)] = 1;
      return 1;
    }
    // Each part is made unit length, then weighted so that the cosine of two vectors is
    // `lexicalWeight * lexical cosine + (1 - lexicalWeight) * word-vector cosine`. A text with
    // only one part (CJK only, or no word the table holds) is that part alone.
    const lexicalShare = hasDense ? this.lexicalScale : 1;
    const denseShare = hasLexical ? this.denseScale : 1;
    const lexicalFactor = hasLexical ? lexicalShare / Math.sqrt(lexicalNormSquared) : 0;
    const denseFactor = hasDense ? denseShare / Math.sqrt(denseNormSquared) : 0;
    // The joined vector and its norm, for the final L2 normalisation (by the callers), in float64 whatever the output holds.
    return this.arithmetic.join(lexicalFactor, denseFactor);
  }
}

/** The error of a text that is not a string. */
function notText(text: unknown): LookupKnowledgeError<EmbeddingsErrorCode> {
  return new LookupKnowledgeError<EmbeddingsErrorCode>({
    code: "invalid_embedding_input",
    message: `OfflineEmbeddings: text must be a string (got ${describeValue(text)})`,
  });
}
