import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { z } from "zod";
import { embeddingsSchema } from "../internal/embeddings-schema.js";
import { integerFrom } from "../internal/integer-from.js";
import { metadataKeySchema } from "../internal/metadata-key-schema.js";
import { objectWithMethods } from "../internal/object-with-methods.js";
import { normalizePineconeScore } from "./normalize-pinecone-score.js";
import type { PineconeMetric } from "./normalize-pinecone-score.js";
import type { PineconeIndex } from "./pinecone-search-port.js";

/**
 * The options of `createPineconeSearchPort`. They are checked by
 * `pineconeSearchPortOptionsSchema`, whose input type is this one: the type test in
 * `pinecone-search-port-options.test.ts` fails when the two differ. The interface is written
 * out because a type inferred from a schema loses its documentation in the published `.d.ts`.
 */
export interface PineconeSearchPortOptions {
  /** The client's index handle: `new Pinecone({ apiKey }).index({ name })` or `.index({ host })`. The adapter never creates a client. */
  index: PineconeIndex;
  /** The namespace to read and write; default: the one the `Index` was opened with (the default namespace). */
  namespace?: string | undefined;
  /** Embeds queries and records (dense and hybrid modes): any LangChain `Embeddings`. */
  embeddings?: EmbeddingsInterface | undefined;
  /**
   * Integrated inference: the index embeds text itself (`searchRecords`, `upsertRecords`).
   * `textField` is the field its `field_map` embeds; `true` reads it from `indexDescription`.
   * Excludes `embeddings`.
   */
  integrated?: true | { textField: string } | undefined;
  /** The index's metric. Default: from `indexDescription`; one of the two is required. */
  metric?: PineconeMetric | undefined;
  /**
   * What `pc.describeIndex(name)` returned. Parsed for the metric, the dimension, the vector
   * type and the integrated-inference field map; never trusted blindly.
   */
  indexDescription?: unknown;
  /**
   * Sparse-dense hybrid search (dense mode on a `dotproduct` index only): records and queries
   * also carry lexical sparse values (`lexicalSparseValues`). `lexicalWeight` (0 to below 1,
   * default 0.3) is the lexical share of the score; the dense share is the rest.
   */
  hybrid?: boolean | { lexicalWeight?: number | undefined } | undefined;
  /** The metadata key that holds a chunk's text in dense and hybrid modes (default `"text"`, as LangChain's PineconeStore). */
  textKey?: string | undefined;
  /** Replaces the built-in score normalisation (`normalizePineconeScore`); must return 0..1. */
  normalizeScore?: ((raw: number, metric: PineconeMetric) => number) | undefined;
  /** Records per upsert request (default 100; 96 at most in integrated mode, 1000 otherwise). */
  batchSize?: number | undefined;
  /** Upsert requests (and documents being deleted) in flight at once (default 4). */
  concurrency?: number | undefined;
  /** Retries of a call that met 429, 5xx, a connection failure or a timeout (default 3). */
  maxRetries?: number | undefined;
  /** Time limit of one attempt of one call, in ms (default 20000). */
  timeoutMs?: number | undefined;
  /** First retry delay in ms, doubled on each retry with full jitter (default 250). */
  retryBaseDelayMs?: number | undefined;
  /** Longest retry delay in ms (default 8000). */
  retryMaxDelayMs?: number | undefined;
}

const indexMethods = ["query", "fetch", "upsert", "deleteMany", "listPaginated", "describeIndexStats", "searchRecords", "upsertRecords"];
const lexicalWeightError = "expected a number from 0 up to, not including, 1 (the dense share of a query may not vanish)";
const textFieldError = "expected the name of the field the index embeds (its field_map text)";

/**
 * Each option of `createPineconeSearchPort` checked on its own, with the defaults that do not
 * depend on other options; `readPineconeSettings` parses it (through `parseOptions`, so a bad
 * option is a `ConfigurationError` naming it) and then checks what depends on several.
 */
export const pineconeSearchPortOptionsSchema = z.object(
  {
    index: objectWithMethods<PineconeIndex>(
      z,
      indexMethods,
      "expected the client's Index, e.g. new Pinecone({ apiKey }).index({ name }) (@pinecone-database/pinecone 8)",
    ),
    namespace: z.string({ error: "expected a string" }).optional(),
    embeddings: embeddingsSchema.optional(),
    integrated: z
      .union(
        [
          z.literal(true),
          // Not aborting, so that a bad textField is refused under its own name (integrated.textField).
          z.object({
            textField: z.custom<string>((value) => typeof value === "string" && value !== "", { error: textFieldError, abort: false }),
          }),
        ],
        { error: "expected true or { textField }" },
      )
      .optional(),
    metric: z.enum(["cosine", "dotproduct", "euclidean"], { error: 'expected "cosine", "dotproduct" or "euclidean"' }).optional(),
    indexDescription: z.unknown().optional(),
    hybrid: z
      .union(
        [
          z.boolean(),
          z.object({
            lexicalWeight: z
              .number({ error: lexicalWeightError })
              .min(0, { error: lexicalWeightError })
              .lt(1, { error: lexicalWeightError })
              .default(0.3),
          }),
        ],
        { error: "expected true, false or { lexicalWeight }" },
      )
      .optional(),
    textKey: metadataKeySchema("text").optional(),
    normalizeScore: z
      .custom<(raw: number, metric: PineconeMetric) => number>((value) => typeof value === "function", {
        error: "expected a function (raw, metric) => 0..1",
      })
      .default(() => normalizePineconeScore),
    batchSize: integerFrom(1, 1000).optional(),
    concurrency: integerFrom(1, 64).default(4),
    maxRetries: integerFrom(0, 10).default(3),
    timeoutMs: integerFrom(1, 600_000).default(20_000),
    retryBaseDelayMs: integerFrom(0, 60_000).default(250),
    retryMaxDelayMs: integerFrom(0, 600_000).default(8_000),
  },
  { error: "expected an options object" },
);
