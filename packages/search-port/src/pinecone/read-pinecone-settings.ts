import { ConfigurationError, parseOptions } from "@lookup-knowledge/core";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { z } from "zod";
import { embeddingsSchema } from "../internal/embeddings-schema.js";
import { integerFrom } from "../internal/integer-from.js";
import { metadataKeySchema } from "../internal/metadata-key-schema.js";
import { objectWithMethods } from "../internal/object-with-methods.js";
import type { CallPolicy } from "./call-pinecone.js";
import { normalizePineconeScore } from "./normalize-pinecone-score.js";
import type { PineconeMetric } from "./normalize-pinecone-score.js";
import { parseIndexDescription } from "./parse-index-description.js";
import type { PineconeIndex, PineconeSearchMode, PineconeSearchPortOptions } from "./pinecone-search-port.js";

const defaultLexicalWeight = 0.3;
const defaultTextKey = "text";

/** The options of `createPineconeSearchPort`, checked and with their defaults. */
export interface PineconeSettings {
  index: PineconeIndex;
  namespace: string | undefined;
  mode: PineconeSearchMode;
  metric: PineconeMetric;
  embeddings: EmbeddingsInterface | undefined;
  textField: string;
  lexicalWeight: number;
  normalizeScore: (raw: number, metric: PineconeMetric) => number;
  batchSize: number;
  concurrency: number;
  policy: CallPolicy;
}

const indexMethods = ["query", "fetch", "upsert", "deleteMany", "listPaginated", "describeIndexStats", "searchRecords", "upsertRecords"];

const optionsSchema = z.object(
  {
    index: objectWithMethods<PineconeIndex>(
      indexMethods,
      "expected the client's Index, e.g. new Pinecone({ apiKey }).index({ name }) (@pinecone-database/pinecone 8)",
    ),
    namespace: z.string({ error: "expected a string" }).optional(),
    embeddings: embeddingsSchema.optional(),
    integrated: z.union([z.literal(true), z.object({ textField: z.unknown() })], { error: "expected true or { textField }" }).optional(),
    metric: z.enum(["cosine", "dotproduct", "euclidean"], { error: 'expected "cosine", "dotproduct" or "euclidean"' }).optional(),
    indexDescription: z.unknown().optional(),
    hybrid: z
      .union(
        [
          z.boolean(),
          z.object({
            lexicalWeight: z
              .number({ error: "expected a number from 0 up to, not including, 1 (the dense share of a query may not vanish)" })
              .min(0, { error: "expected a number from 0 up to, not including, 1 (the dense share of a query may not vanish)" })
              .lt(1, { error: "expected a number from 0 up to, not including, 1 (the dense share of a query may not vanish)" })
              .optional(),
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
      .optional(),
    batchSize: integerFrom(1, 1000).optional(),
    concurrency: integerFrom(1, 64).optional(),
    maxRetries: integerFrom(0, 10).optional(),
    timeoutMs: integerFrom(1, 600_000).optional(),
    retryBaseDelayMs: integerFrom(0, 60_000).optional(),
    retryMaxDelayMs: integerFrom(0, 600_000).optional(),
  },
  { error: "expected an options object" },
);

/**
 * Reads the options of `createPineconeSearchPort`: each one's shape through zod
 * (`parseOptions`), then what depends on several (the mode, the metric against the index
 * description, hybrid on dotproduct only, the batch limit of integrated writes). A bad option
 * is a `ConfigurationError` whose key is the option's name (`batchSize`, `hybrid.lexicalWeight`),
 * as the README documents it.
 */
export function readPineconeSettings(input: PineconeSearchPortOptions): PineconeSettings {
  const options = parseOptions(optionsSchema, input, "");
  const refuse = (key: string, value: unknown, reason: string): never => {
    throw new ConfigurationError({ key, value, reason });
  };

  const facts = options.indexDescription === undefined ? undefined : parseIndexDescription(options.indexDescription);
  const metric = options.metric ?? facts?.metric;
  if (metric === undefined)
    return refuse("metric", undefined, "give the index's metric, or indexDescription: await pc.describeIndex(name)");
  if (facts !== undefined && facts.metric !== metric) refuse("metric", metric, `the index description says ${facts.metric}`);
  if (facts?.vectorType !== undefined && facts.vectorType !== "dense") {
    refuse(
      "indexDescription.vectorType",
      facts.vectorType,
      "only dense indexes are supported (hybrid search uses a dense dotproduct index with sparse values)",
    );
  }

  const { embeddings } = options;
  let mode: PineconeSearchMode;
  let textField: string;
  if (options.integrated !== undefined) {
    if (embeddings !== undefined) refuse("integrated", "integrated", "give either embeddings or integrated, not both");
    if (options.hybrid !== undefined && options.hybrid !== false) {
      refuse("hybrid", options.hybrid, "hybrid search needs embeddings, not integrated inference");
    }
    if (options.textKey !== undefined) refuse("textKey", options.textKey, "integrated mode keeps the text in integrated.textField");
    const field = options.integrated === true ? facts?.textField : options.integrated.textField;
    if (typeof field !== "string" || field === "") {
      return refuse(
        "integrated.textField",
        field,
        options.integrated === true
          ? "integrated: true reads the field from indexDescription.embed.fieldMap.text, which is missing"
          : "expected the name of the field the index embeds (its field_map text)",
      );
    }
    mode = "integrated";
    textField = field;
  } else {
    if (embeddings === undefined)
      return refuse("embeddings", undefined, "give embeddings (dense or hybrid) or integrated (the index embeds)");
    textField = options.textKey ?? defaultTextKey;
    mode = options.hybrid === undefined || options.hybrid === false ? "dense" : "hybrid";
  }

  let lexicalWeight = defaultLexicalWeight;
  if (mode === "hybrid") {
    if (metric !== "dotproduct") {
      refuse("hybrid", options.hybrid, `Pinecone supports sparse-dense search on dotproduct indexes only, not ${metric}`);
    }
    if (typeof options.hybrid === "object") lexicalWeight = options.hybrid.lexicalWeight ?? defaultLexicalWeight;
  }

  const batchLimit = mode === "integrated" ? 96 : 1000;
  if (options.batchSize !== undefined && options.batchSize > batchLimit) {
    refuse("batchSize", options.batchSize, `expected an integer from 1 to ${batchLimit}`);
  }
  return {
    index: options.index,
    namespace: options.namespace,
    mode,
    metric,
    embeddings,
    textField,
    lexicalWeight,
    normalizeScore: options.normalizeScore ?? normalizePineconeScore,
    batchSize: options.batchSize ?? Math.min(100, batchLimit),
    concurrency: options.concurrency ?? 4,
    policy: {
      maxRetries: options.maxRetries ?? 3,
      timeoutMs: options.timeoutMs ?? 20_000,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 250,
      retryMaxDelayMs: options.retryMaxDelayMs ?? 8_000,
    },
  };
}
