import { ConfigurationError, describeValue } from "@lookup-knowledge/core";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { PineconeRecord, RecordMetadata } from "@pinecone-database/pinecone";
import { z } from "zod";
import { raceWithAbort, throwIfAborted } from "../internal/abort.js";
import { requireArray } from "../internal/require-array.js";
import { indexedText } from "../internal/indexed-text.js";
import type { KnowledgeRecord } from "../knowledge-record.js";
import type { KnowledgeWriter } from "../knowledge-writer.js";
import { callPinecone } from "./call-pinecone.js";
import { forEachBounded } from "./for-each-bounded.js";
import { lexicalSparseValues } from "./lexical-sparse-values.js";
import { namespaceOption, parsePineconeResponse } from "./parse-pinecone-response.js";
import { PineconePortError } from "./pinecone-port-error.js";
import type { PineconeSettings } from "./read-pinecone-settings.js";
import { checkVector, unitVector } from "./unit-vector.js";

const maxMetadataBytes = 40_960;
const maxDeleteBatch = 1000;
const listPageSize = 100;

const listResponseSchema = z.object({
  vectors: z.array(z.object({ id: z.string() })).nullish(),
  pagination: z.object({ next: z.string().nullish() }).nullish(),
});
const statsResponseSchema = z.object({ dimension: z.number().int().nonnegative().nullish() });

/**
 * The writer of the Pinecone port: `upsert` in bounded, concurrent batches (embedded, with
 * lexical sparse values in hybrid mode, or as integrated records), the embedder's dimension
 * checked against the index once, and `deleteDocuments` by listing each document's chunk ids.
 */
export function createPineconeWriter(settings: PineconeSettings): Pick<KnowledgeWriter, "upsert" | "deleteDocuments"> {
  const { index, namespace, mode, policy } = settings;
  let checkedDimension: Promise<void> | undefined;

  async function upsert(records: KnowledgeRecord[], options?: { signal?: AbortSignal }): Promise<void> {
    const signal = options?.signal;
    throwIfAborted(signal);
    requireArray(records, "upsert");
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
          await callPinecone(
            "upsertRecords",
            () => index.upsertRecords({ records: payload, ...namespaceOption(namespace) }),
            policy,
            signal,
          );
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
        await callPinecone("upsert", () => index.upsert({ records: payload, ...namespaceOption(namespace) }), policy, signal);
      },
      signal,
    );
  }

  function checkDimension(dimension: number, signal: AbortSignal | undefined): Promise<void> {
    checkedDimension ??= (async () => {
      const stats = parsePineconeResponse(
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
    requireArray(docIds, "deleteDocuments");
    const wanted = [...new Set(docIds.filter((docId): docId is string => typeof docId === "string" && docId !== ""))];
    let removed = 0;
    await forEachBounded(
      wanted,
      settings.concurrency,
      async (docId) => {
        const ids = await chunkIds(docId, signal);
        for (let start = 0; start < ids.length; start += maxDeleteBatch) {
          const batch = ids.slice(start, start + maxDeleteBatch);
          await callPinecone("deleteMany", () => index.deleteMany({ ids: batch, ...namespaceOption(namespace) }), policy, signal);
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
      const page = parsePineconeResponse(
        listResponseSchema,
        await callPinecone(
          "listPaginated",
          () =>
            index.listPaginated({
              prefix: `${docId}#`,
              limit: listPageSize,
              ...namespaceOption(namespace),
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

  return { upsert, deleteDocuments };
}

/** The record's metadata as Pinecone stores it; refuses what Pinecone cannot hold, naming the record and key. */
function pineconeMetadata(record: KnowledgeRecord, settings: PineconeSettings): RecordMetadata {
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
    if (settings.mode === "integrated" && (key === "_id" || key === "id"))
      return refuse(`metadata.${key} is reserved by integrated records`);
    if (typeof value === "string" || typeof value === "boolean") metadata[key] = value;
    else if (typeof value === "number" && Number.isFinite(value)) metadata[key] = value;
    else if (Array.isArray(value) && value.every((item) => typeof item === "string")) metadata[key] = [...value];
    else
      return refuse(`metadata.${key} is ${describeValue(value)}; Pinecone stores strings, finite numbers, booleans and lists of strings`);
  }
  const size = Buffer.byteLength(JSON.stringify({ ...metadata, [settings.textField]: record.content }), "utf8");
  if (size > maxMetadataBytes) return refuse(`its metadata with the text takes ${size} bytes; Pinecone allows ${maxMetadataBytes}`);
  return metadata;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
