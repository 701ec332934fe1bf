import { ConfigurationError } from "@lookup-knowledge/core";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { PineconeRecord, RecordMetadata } from "@pinecone-database/pinecone";
import { raceWithAbort } from "../internal/abort.js";
import { indexedText } from "../internal/indexed-text.js";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { callPinecone } from "./call-pinecone.js";
import { lexicalSparseValues } from "./lexical-sparse-values.js";
import { namespaceOption } from "./parse-pinecone-response.js";
import type { PineconeDimensionCheck } from "./pinecone-dimension-check.js";
import { PineconePortError } from "./pinecone-port-error.js";
import type { PineconeSettings } from "./read-pinecone-settings.js";
import { checkVector, unitVector } from "./unit-vector.js";

/** A record about to be written, with its metadata as Pinecone stores it (`pineconeMetadata`). */
export interface PreparedPineconeRecord {
  record: KnowledgeRecord;
  metadata: RecordMetadata;
}

/**
 * Writes one batch: as integrated records (`upsertRecords`, the index embeds the text), or
 * embedded (`upsert`: unit vectors, with lexical sparse values in hybrid mode, after the
 * dimension check).
 */
export async function upsertPineconeBatch(
  settings: PineconeSettings,
  batch: readonly PreparedPineconeRecord[],
  checkDimension: PineconeDimensionCheck,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { index, namespace, policy, textField } = settings;
  if (settings.mode === "integrated") {
    const payload = batch.map(({ record, metadata }) => ({ _id: record.id, ...metadata, [textField]: record.content }));
    await callPinecone("upsertRecords", () => index.upsertRecords({ records: payload, ...namespaceOption(namespace) }), policy, signal);
    return;
  }
  const payload = await embedBatch(settings, batch, checkDimension, signal);
  await callPinecone("upsert", () => index.upsert({ records: payload, ...namespaceOption(namespace) }), policy, signal);
}

async function embedBatch(
  settings: PineconeSettings,
  batch: readonly PreparedPineconeRecord[],
  checkDimension: PineconeDimensionCheck,
  signal: AbortSignal | undefined,
): Promise<Array<PineconeRecord<RecordMetadata>>> {
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
  return batch.map(({ record, metadata }, position) => {
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
    const sparse = settings.mode === "hybrid" ? lexicalSparseValues(indexedText(record)) : undefined;
    return {
      id: record.id,
      values,
      ...(sparse !== undefined && sparse.indices.length > 0 ? { sparseValues: sparse } : {}),
      metadata: { ...metadata, [settings.textField]: record.content },
    };
  });
}
