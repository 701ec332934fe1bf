import { ConfigurationError, parseOptions } from "@lookup-knowledge/core";
import type { z } from "zod";
import type { CallPolicy } from "./call-pinecone.js";
import type { PineconeMetric } from "./normalize-pinecone-score.js";
import { parseIndexDescription } from "./parse-index-description.js";
import type { IndexFacts } from "./parse-index-description.js";
import type { PineconeSearchMode } from "./pinecone-search-port.js";
import { pineconeSearchPortOptionsSchema } from "./pinecone-search-port-options.js";
import type { PineconeSearchPortOptions } from "./pinecone-search-port-options.js";

const defaultLexicalWeight = 0.3;
const defaultTextKey = "text";

/** The options as `pineconeSearchPortOptionsSchema` gives them: each checked, the independent defaults filled in. */
type ParsedPineconeOptions = z.output<typeof pineconeSearchPortOptionsSchema>;

/**
 * The options of `createPineconeSearchPort`, checked and with their defaults: the parsed
 * options, with what depends on several of them worked out (the mode, the metric, the text
 * field, the batch size, the retry policy).
 */
export interface PineconeSettings extends Pick<ParsedPineconeOptions, "index" | "embeddings" | "normalizeScore" | "concurrency"> {
  namespace: string | undefined;
  mode: PineconeSearchMode;
  metric: PineconeMetric;
  textField: string;
  lexicalWeight: number;
  batchSize: number;
  policy: CallPolicy;
}

/**
 * Reads the options of `createPineconeSearchPort`: each one's shape through zod
 * (`parseOptions`), then what depends on several (the mode, the metric against the index
 * description, hybrid on dotproduct only, the batch limit of integrated writes). A bad option
 * is a `ConfigurationError` whose key is the option's name (`batchSize`, `hybrid.lexicalWeight`),
 * as the README documents it.
 */
export function readPineconeSettings(input: PineconeSearchPortOptions): PineconeSettings {
  const options = parseOptions(pineconeSearchPortOptionsSchema, input, "");
  const facts = options.indexDescription === undefined ? undefined : parseIndexDescription(options.indexDescription);
  const metric = readMetric(options, facts);
  const { mode, textField } = readMode(options, facts);
  let lexicalWeight = defaultLexicalWeight;
  if (mode === "hybrid") {
    if (metric !== "dotproduct") {
      refuse("hybrid", options.hybrid, `Pinecone supports sparse-dense search on dotproduct indexes only, not ${metric}`);
    }
    if (typeof options.hybrid === "object") lexicalWeight = options.hybrid.lexicalWeight;
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
    embeddings: options.embeddings,
    textField,
    lexicalWeight,
    normalizeScore: options.normalizeScore,
    batchSize: options.batchSize ?? Math.min(100, batchLimit),
    concurrency: options.concurrency,
    policy: callPolicyOf(options),
  };
}

/** The retry policy of the parsed options (their defaults filled in by the schema). */
export function callPolicyOf(options: Pick<ParsedPineconeOptions, keyof CallPolicy>): CallPolicy {
  const { maxRetries, timeoutMs, retryBaseDelayMs, retryMaxDelayMs } = options;
  return { maxRetries, timeoutMs, retryBaseDelayMs, retryMaxDelayMs };
}

function refuse(key: string, value: unknown, reason: string): never {
  throw new ConfigurationError({ key, value, reason });
}

/** The metric given, or the index description's; both given, they must agree. Only dense indexes. */
function readMetric(options: ParsedPineconeOptions, facts: IndexFacts | undefined): PineconeMetric {
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
  return metric;
}

/** Integrated (the index embeds: no embeddings, no hybrid, no textKey) or dense / hybrid (embeddings needed), with the field of the text. */
function readMode(options: ParsedPineconeOptions, facts: IndexFacts | undefined): { mode: PineconeSearchMode; textField: string } {
  const { embeddings, integrated } = options;
  if (integrated === undefined) {
    if (embeddings === undefined)
      return refuse("embeddings", undefined, "give embeddings (dense or hybrid) or integrated (the index embeds)");
    const mode = options.hybrid === undefined || options.hybrid === false ? "dense" : "hybrid";
    return { mode, textField: options.textKey ?? defaultTextKey };
  }
  if (embeddings !== undefined) refuse("integrated", "integrated", "give either embeddings or integrated, not both");
  if (options.hybrid !== undefined && options.hybrid !== false) {
    refuse("hybrid", options.hybrid, "hybrid search needs embeddings, not integrated inference");
  }
  if (options.textKey !== undefined) refuse("textKey", options.textKey, "integrated mode keeps the text in integrated.textField");
  if (integrated !== true) return { mode: "integrated", textField: integrated.textField };
  const field = facts?.textField;
  if (field === undefined) {
    return refuse(
      "integrated.textField",
      field,
      "integrated: true reads the field from indexDescription.embed.fieldMap.text, which is missing",
    );
  }
  return { mode: "integrated", textField: field };
}
