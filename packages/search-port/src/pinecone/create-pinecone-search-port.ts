import { InvalidWriteError } from "../invalid-write-error.js";
import { ConfigurationError, describeValue } from "@lookup-knowledge/core";
import type { MetadataFilter, SearchHit } from "@lookup-knowledge/core";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { PineconeRecord, RecordMetadata } from "@pinecone-database/pinecone";
import { z } from "zod";
import { raceWithAbort, throwIfAborted } from "../internal/abort.js";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { matchesFilter } from "../matches-filter.js";
import type { SearchRequest } from "../search-request.js";
import { readSearchRequest } from "../internal/read-search-request.js";
import { callPinecone } from "./call-pinecone.js";
import type { CallPolicy } from "./call-pinecone.js";
import { forEachBounded } from "./for-each-bounded.js";
import { lexicalSparseValues } from "./lexical-sparse-values.js";
import type { SparseValues } from "./lexical-sparse-values.js";
import { normalizePineconeScore } from "./normalize-pinecone-score.js";
import type { PineconeMetric } from "./normalize-pinecone-score.js";
import { parseIndexDescription, parseMetric } from "./parse-index-description.js";
import type { IndexFacts } from "./parse-index-description.js";
import { PineconePortError } from "./pinecone-port-error.js";
import type { PineconeIndex, PineconeSearchMode, PineconeSearchPort, PineconeSearchPortOptions } from "./pinecone-search-port.js";
import { toPineconeFilter } from "../internal/to-pinecone-filter.js";

const defaultLexicalWeight = 0.3;
const defaultTextKey = "text";
const maxMetadataBytes = 40_960;
const maxDeleteBatch = 1000;
const listPageSize = 100;

const matchSchema = z.object({
  id: z.string(),
  score: z.number(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
const queryResponseSchema = z.object({ matches: z.array(matchSchema) });
const searchRecordsResponseSchema = z.object({
  result: z.object({
    hits: z.array(z.object({ _id: z.string(), _score: z.number(), fields: z.record(z.string(), z.unknown()).nullish() })),
  }),
});
const listResponseSchema = z.object({
  vectors: z.array(z.object({ id: z.string() })).nullish(),
  pagination: z.object({ next: z.string().nullish() }).nullish(),
});
const statsResponseSchema = z.object({ dimension: z.number().int().nonnegative().nullish() });

interface Settings {
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

/**
 * A `KnowledgeSearchPort` (R13) and `KnowledgeWriter` over one namespace of a Pinecone index,
 * through the official client (`@pinecone-database/pinecone` 8, a peer dependency). It takes
 * the client's `Index`; it never creates a client, and never reads or logs the API key.
 *
 * Three modes:
 * - **dense** (`embeddings`): queries and records are embedded with a LangChain `Embeddings`,
 *   scaled to unit length; the chunk text is kept in metadata under `textKey`;
 * - **hybrid** (`embeddings` and `hybrid`, `dotproduct` indexes): records and queries also
 *   carry lexical sparse values (`lexicalSparseValues`), the query's weighted by
 *   `lexicalWeight` and its dense values by the rest;
 * - **integrated** (`integrated`): the index embeds text itself; searches go through
 *   `searchRecords`, writes through `upsertRecords`.
 *
 * Searches validate the filter (`validateMetadataFilter`) and pass it natively, translated
 * so that Pinecone selects what `matchesFilter` would (`toPineconeFilter`); a returned record
 * that the filter excludes fails the search (`filter_not_honoured`) instead of leaking.
 * Scores are normalised per metric (`normalizePineconeScore`): 0..1, higher is better,
 * best first, ties by id. Each call is retried on 429, 5xx, connection failures and
 * timeouts, with backoff, and bounded; a 4xx fails at once with a `PineconePortError`.
 *
 * Bad options throw `ConfigurationError` naming the option.
 */
export function createPineconeSearchPort(options: PineconeSearchPortOptions): PineconeSearchPort {
  const settings = resolveSettings(options);
  const { index, namespace, mode, metric, policy } = settings;
  let checkedDimension: Promise<void> | undefined;

  async function search(request: SearchRequest): Promise<SearchHit[]> {
    const signal = request.signal;
    throwIfAborted(signal);
    const { filter, topK, query } = readSearchRequest(request);
    if (topK === 0) return [];
    const translated = filter === undefined ? true : toPineconeFilter(filter);
    if (translated === false) return [];
    const nativeFilter = translated === true ? undefined : translated;

    let hits: SearchHit[];
    if (mode === "integrated") {
      const response = await callPinecone(
        "searchRecords",
        () =>
          index.searchRecords({
            ...namespaceOption(),
            query: { topK, inputs: { text: query }, ...(nativeFilter === undefined ? {} : { filter: nativeFilter }) },
          }),
        policy,
        signal,
      );
      const parsed = parseResponse(searchRecordsResponseSchema, response, "searchRecords");
      hits = parsed.result.hits.map((hit) => toHit(hit._id, hit._score, hit.fields ?? {}));
    } else {
      const embedded = await raceWithAbort(embedQuery(query), signal);
      if (embedded === undefined) return [];
      let vector = embedded;
      let sparseVector: SparseValues | undefined;
      if (mode === "hybrid") {
        const denseShare = 1 - settings.lexicalWeight;
        vector = embedded.map((value) => value * denseShare);
        const sparse = lexicalSparseValues(query);
        if (sparse.indices.length > 0 && settings.lexicalWeight > 0) {
          sparseVector = { indices: sparse.indices, values: sparse.values.map((value) => value * settings.lexicalWeight) };
        }
      }
      const response = await callPinecone(
        "query",
        () =>
          index.query({
            ...namespaceOption(),
            topK,
            vector,
            ...(sparseVector === undefined ? {} : { sparseVector }),
            ...(nativeFilter === undefined ? {} : { filter: nativeFilter }),
            includeMetadata: true,
            includeValues: false,
          }),
        policy,
        signal,
      );
      const parsed = parseResponse(queryResponseSchema, response, "query");
      hits = parsed.matches.map((match) => toHit(match.id, match.score, match.metadata ?? {}));
    }

    for (const hit of hits) assertHonoured(hit, filter, mode === "integrated" ? "searchRecords" : "query");
    hits.sort((left, right) => (right.score ?? 0) - (left.score ?? 0) || compareIds(left.id ?? "", right.id ?? ""));
    return hits.slice(0, topK);
  }

  function toHit(id: string, raw: number, fields: Record<string, unknown>): SearchHit {
    const { [settings.textField]: text, ...metadata } = fields;
    const score = settings.normalizeScore(raw, metric);
    return {
      id,
      content: typeof text === "string" ? text : "",
      metadata,
      score: Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 0,
    };
  }

  async function embedQuery(query: string): Promise<number[] | undefined> {
    const embeddings = settings.embeddings as EmbeddingsInterface;
    const vector = await embeddings.embedQuery(query);
    checkVector(vector, "embedQuery");
    return unitVector(vector);
  }

  async function upsert(records: KnowledgeRecord[], options?: { signal?: AbortSignal }): Promise<void> {
    const signal = options?.signal;
    throwIfAborted(signal);
    if (!Array.isArray(records)) throw new InvalidWriteError({ code: "invalid_argument", operation: "upsert", message: "upsert: expected an array of records" });
    const prepared = records.map((record) => ({ record, metadata: pineconeMetadata(record, settings) }));
    if (prepared.length === 0) return;
    const batches: Array<typeof prepared> = [];
    for (let start = 0; start < prepared.length; start += settings.batchSize) {
      batches.push(prepared.slice(start, start + settings.batchSize));
    }
    if (mode === "integrated") {
      await forEachBounded(
        batches,
        settings.concurrency,
        async (batch) => {
          const payload = batch.map(({ record, metadata }) => ({ _id: record.id, ...metadata, [settings.textField]: record.content }));
          await callPinecone("upsertRecords", () => index.upsertRecords({ records: payload, ...namespaceOption() }), policy, signal);
        },
        signal,
      );
      return;
    }
    await forEachBounded(
      batches,
      settings.concurrency,
      async (batch) => {
        const embeddings = settings.embeddings as EmbeddingsInterface;
        const texts = batch.map(({ record }) => indexedText(record));
        const vectors = await raceWithAbort(embeddings.embedDocuments(texts), signal);
        if (!Array.isArray(vectors) || vectors.length !== batch.length) {
          throw new ConfigurationError({
            key: "embeddings",
            value: vectors,
            reason: `embedDocuments returned ${Array.isArray(vectors) ? vectors.length : "no"} vectors for ${batch.length} texts`,
          });
        }
        const first = vectors[0];
        if (first !== undefined) await checkDimension(first.length, signal);
        const payload: Array<PineconeRecord<RecordMetadata>> = batch.map(({ record, metadata }, position) => {
          const raw = vectors[position] as number[];
          checkVector(raw, "embedDocuments");
          const values = unitVector(raw);
          if (values === undefined) {
            throw new PineconePortError({
              code: "pinecone_invalid_record",
              operation: "upsert",
              message: `Record ${JSON.stringify(record.id)} embeds to a zero vector; Pinecone needs at least one non-zero value`,
            });
          }
          const sparse = mode === "hybrid" ? lexicalSparseValues(indexedText(record)) : undefined;
          return {
            id: record.id,
            values,
            ...(sparse !== undefined && sparse.indices.length > 0 ? { sparseValues: sparse } : {}),
            metadata: { ...metadata, [settings.textField]: record.content },
          };
        });
        await callPinecone("upsert", () => index.upsert({ records: payload, ...namespaceOption() }), policy, signal);
      },
      signal,
    );
  }

  function checkDimension(dimension: number, signal: AbortSignal | undefined): Promise<void> {
    checkedDimension ??= (async () => {
      const stats = parseResponse(
        statsResponseSchema,
        await callPinecone("describeIndexStats", () => index.describeIndexStats(), policy, signal),
        "describeIndexStats",
      );
      const expected = stats.dimension ?? 0;
      if (expected > 0 && expected !== dimension) {
        throw new ConfigurationError({
          key: "embeddings",
          value: dimension,
          reason: `the embeddings give ${dimension} dimensions but the index has ${expected}`,
        });
      }
    })();
    const check = checkedDimension;
    check.catch(() => {
      if (checkedDimension === check) checkedDimension = undefined;
    });
    return check;
  }

  async function deleteDocuments(docIds: string[], options?: { signal?: AbortSignal }): Promise<number> {
    const signal = options?.signal;
    throwIfAborted(signal);
    if (!Array.isArray(docIds)) throw new InvalidWriteError({ code: "invalid_argument", operation: "deleteDocuments", message: "deleteDocuments: expected an array of document ids" });
    const wanted = [...new Set(docIds.filter((docId): docId is string => typeof docId === "string" && docId !== ""))];
    let removed = 0;
    await forEachBounded(
      wanted,
      settings.concurrency,
      async (docId) => {
        const ids = await chunkIds(docId, signal);
        for (let start = 0; start < ids.length; start += maxDeleteBatch) {
          const batch = ids.slice(start, start + maxDeleteBatch);
          await callPinecone("deleteMany", () => index.deleteMany({ ids: batch, ...namespaceOption() }), policy, signal);
          removed += batch.length;
        }
      },
      signal,
    );
    return removed;
  }

  /** The ids `{docId}#chunk-N` in the namespace, found by listing the prefix `{docId}#`. */
  async function chunkIds(docId: string, signal: AbortSignal | undefined): Promise<string[]> {
    const pattern = new RegExp(`^${escapeRegExp(docId)}#chunk-\\d+$`);
    const ids: string[] = [];
    let token: string | undefined;
    const seen = new Set<string>();
    do {
      const page = parseResponse(
        listResponseSchema,
        await callPinecone(
          "listPaginated",
          () =>
            index.listPaginated({
              prefix: `${docId}#`,
              limit: listPageSize,
              ...namespaceOption(),
              ...(token === undefined ? {} : { paginationToken: token }),
            }),
          policy,
          signal,
        ),
        "listPaginated",
      );
      for (const { id } of page.vectors ?? []) if (pattern.test(id)) ids.push(id);
      const next = page.pagination?.next ?? undefined;
      if (next !== undefined && seen.has(next)) {
        throw new PineconePortError({
          code: "pinecone_malformed_response",
          operation: "listPaginated",
          message: `Pinecone listPaginated returned the pagination token ${JSON.stringify(next)} twice`,
        });
      }
      if (next !== undefined) seen.add(next);
      token = next === "" ? undefined : next;
    } while (token !== undefined);
    return ids;
  }

  function namespaceOption(): { namespace?: string } {
    return namespace === undefined ? {} : { namespace };
  }

  return { search, upsert, deleteDocuments, mode, metric, namespace };
}

function resolveSettings(options: PineconeSearchPortOptions): Settings {
  if (options === null || typeof options !== "object") {
    throw new ConfigurationError({ key: "options", value: options, reason: "expected an options object" });
  }
  const index = options.index as unknown;
  const needed = ["query", "upsert", "deleteMany", "listPaginated", "describeIndexStats", "searchRecords", "upsertRecords"];
  if (index === null || typeof index !== "object" || needed.some((name) => typeof (index as Record<string, unknown>)[name] !== "function")) {
    throw new ConfigurationError({
      key: "index",
      value: index,
      reason: "expected the client's Index, e.g. new Pinecone({ apiKey }).index({ name }) (@pinecone-database/pinecone 8)",
    });
  }
  if (options.namespace !== undefined && typeof options.namespace !== "string") {
    throw new ConfigurationError({ key: "namespace", value: options.namespace, reason: "expected a string" });
  }

  const facts: IndexFacts | undefined =
    options.indexDescription === undefined ? undefined : parseIndexDescription(options.indexDescription);
  const metric = options.metric === undefined ? facts?.metric : parseMetric(options.metric);
  if (metric === undefined) {
    throw new ConfigurationError({
      key: "metric",
      value: undefined,
      reason: "give the index's metric, or indexDescription: await pc.describeIndex(name)",
    });
  }
  if (facts !== undefined && facts.metric !== metric) {
    throw new ConfigurationError({ key: "metric", value: metric, reason: `the index description says ${facts.metric}` });
  }
  if (facts?.vectorType !== undefined && facts.vectorType !== "dense") {
    throw new ConfigurationError({
      key: "indexDescription.vectorType",
      value: facts.vectorType,
      reason: "only dense indexes are supported (hybrid search uses a dense dotproduct index with sparse values)",
    });
  }

  const embeddings = options.embeddings;
  if (embeddings !== undefined && (typeof embeddings.embedQuery !== "function" || typeof embeddings.embedDocuments !== "function")) {
    throw new ConfigurationError({ key: "embeddings", value: embeddings, reason: "expected a LangChain Embeddings (embedQuery and embedDocuments)" });
  }
  let mode: PineconeSearchMode;
  let textField: string;
  if (options.integrated !== undefined) {
    if (embeddings !== undefined) {
      throw new ConfigurationError({ key: "integrated", value: "integrated", reason: "give either embeddings or integrated, not both" });
    }
    if (options.hybrid !== undefined && options.hybrid !== false) {
      throw new ConfigurationError({ key: "hybrid", value: options.hybrid, reason: "hybrid search needs embeddings, not integrated inference" });
    }
    const field = options.integrated === true ? facts?.textField : (options.integrated as { textField?: unknown }).textField;
    if (typeof field !== "string" || field === "") {
      throw new ConfigurationError({
        key: "integrated.textField",
        value: field,
        reason:
          options.integrated === true
            ? "integrated: true reads the field from indexDescription.embed.fieldMap.text, which is missing"
            : "expected the name of the field the index embeds (its field_map text)",
      });
    }
    mode = "integrated";
    textField = field;
  } else {
    if (embeddings === undefined) {
      throw new ConfigurationError({ key: "embeddings", value: undefined, reason: "give embeddings (dense or hybrid) or integrated (the index embeds)" });
    }
    textField = options.textKey ?? defaultTextKey;
    if (typeof textField !== "string" || textField === "" || textField.startsWith("$")) {
      throw new ConfigurationError({ key: "textKey", value: options.textKey, reason: 'expected a metadata key such as "text"' });
    }
    mode = options.hybrid === undefined || options.hybrid === false ? "dense" : "hybrid";
  }
  if (options.textKey !== undefined && mode === "integrated") {
    throw new ConfigurationError({ key: "textKey", value: options.textKey, reason: "integrated mode keeps the text in integrated.textField" });
  }

  let lexicalWeight = defaultLexicalWeight;
  if (mode === "hybrid") {
    if (metric !== "dotproduct") {
      throw new ConfigurationError({ key: "hybrid", value: options.hybrid, reason: `Pinecone supports sparse-dense search on dotproduct indexes only, not ${metric}` });
    }
    if (typeof options.hybrid === "object" && options.hybrid !== null && options.hybrid.lexicalWeight !== undefined) {
      lexicalWeight = options.hybrid.lexicalWeight;
      if (typeof lexicalWeight !== "number" || !(lexicalWeight >= 0 && lexicalWeight < 1)) {
        throw new ConfigurationError({
          key: "hybrid.lexicalWeight",
          value: lexicalWeight,
          reason: "expected a number from 0 up to, not including, 1 (the dense share of a query may not vanish)",
        });
      }
    } else if (options.hybrid !== true && (typeof options.hybrid !== "object" || options.hybrid === null)) {
      throw new ConfigurationError({ key: "hybrid", value: options.hybrid, reason: "expected true, false or { lexicalWeight }" });
    }
  }

  if (options.normalizeScore !== undefined && typeof options.normalizeScore !== "function") {
    throw new ConfigurationError({ key: "normalizeScore", value: options.normalizeScore, reason: "expected a function (raw, metric) => 0..1" });
  }
  const batchLimit = mode === "integrated" ? 96 : 1000;
  return {
    index: options.index,
    namespace: options.namespace,
    mode,
    metric,
    embeddings,
    textField,
    lexicalWeight,
    normalizeScore: options.normalizeScore ?? normalizePineconeScore,
    batchSize: integerOption("batchSize", options.batchSize, Math.min(100, batchLimit), 1, batchLimit),
    concurrency: integerOption("concurrency", options.concurrency, 4, 1, 64),
    policy: {
      maxRetries: integerOption("maxRetries", options.maxRetries, 3, 0, 10),
      timeoutMs: integerOption("timeoutMs", options.timeoutMs, 20_000, 1, 600_000),
      retryBaseDelayMs: integerOption("retryBaseDelayMs", options.retryBaseDelayMs, 250, 0, 60_000),
      retryMaxDelayMs: integerOption("retryMaxDelayMs", options.retryMaxDelayMs, 8_000, 0, 600_000),
    },
  };
}

function integerOption(key: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new ConfigurationError({ key, value, reason: `expected an integer from ${min} to ${max}` });
  }
  return value;
}

/** The record's metadata as Pinecone stores it; refuses what Pinecone cannot hold, naming the record and key. */
function pineconeMetadata(record: KnowledgeRecord, settings: Settings): RecordMetadata {
  const refuse = (reason: string): never => {
    throw new PineconePortError({
      code: "pinecone_invalid_record",
      operation: settings.mode === "integrated" ? "upsertRecords" : "upsert",
      message: `Record ${describeValue(record?.id)} cannot be written to Pinecone: ${reason}`,
    });
  };
  if (record === null || typeof record !== "object") return refuse("not a record");
  if (typeof record.id !== "string" || record.id === "") return refuse("its id must be a non-empty string");
  if (typeof record.content !== "string") return refuse("its content must be a string");
  const metadata: RecordMetadata = {};
  for (const [key, value] of Object.entries(record.metadata ?? {})) {
    if (value === undefined || value === null) continue;
    if (key === settings.textField) return refuse(`metadata.${key} is where the adapter keeps the text; rename the key or set textKey`);
    if (settings.mode === "integrated" && (key === "_id" || key === "id")) return refuse(`metadata.${key} is reserved by integrated records`);
    if (typeof value === "string" || typeof value === "boolean") metadata[key] = value;
    else if (typeof value === "number" && Number.isFinite(value)) metadata[key] = value;
    else if (Array.isArray(value) && value.every((item) => typeof item === "string")) metadata[key] = [...value];
    else return refuse(`metadata.${key} is ${describeValue(value)}; Pinecone stores strings, finite numbers, booleans and lists of strings`);
  }
  const size = Buffer.byteLength(JSON.stringify({ ...metadata, [settings.textField]: record.content }), "utf8");
  if (size > maxMetadataBytes) return refuse(`its metadata with the text takes ${size} bytes; Pinecone allows ${maxMetadataBytes}`);
  return metadata;
}

function parseResponse<T>(schema: z.ZodType<T>, value: unknown, operation: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new PineconePortError({
    code: "pinecone_malformed_response",
    operation,
    message: `Pinecone ${operation} answered in an unexpected shape${issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : ""}: ${issue?.message ?? "unreadable"}`,
  });
}

function assertHonoured(hit: SearchHit, filter: MetadataFilter | undefined, operation: string): void {
  if (filter === undefined || matchesFilter(hit.metadata, filter)) return;
  throw new PineconePortError({
    code: "filter_not_honoured",
    operation,
    message: `Pinecone ${operation} returned ${JSON.stringify(hit.id)}, which the filter ${JSON.stringify(filter)} excludes; refusing to pass it on`,
  });
}

function checkVector(vector: unknown, source: string): asserts vector is number[] {
  if (!Array.isArray(vector) || vector.length === 0 || !vector.every((value) => typeof value === "number" && Number.isFinite(value))) {
    throw new ConfigurationError({ key: "embeddings", value: vector, reason: `${source} must return a non-empty array of finite numbers` });
  }
}

/** The vector scaled to unit length, or undefined for a zero vector. */
function unitVector(vector: number[]): number[] | undefined {
  let sum = 0;
  for (const value of vector) sum += value * value;
  if (sum === 0) return undefined;
  const length = Math.sqrt(sum);
  return vector.map((value) => value / length);
}

/** What is embedded for a record: its title and content, as the embedded default does. */
function indexedText(record: KnowledgeRecord): string {
  const title = record.metadata["title"];
  return typeof title === "string" && title.trim() !== "" ? `${title}\n${record.content}` : record.content;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function compareIds(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
