import type { KnowledgeRecord, KnowledgeWriter } from "@lookup-knowledge/search-port";

/**
 * The write step of an ingest: deletes the chunks of the `stale` documents, then upserts the
 * `records` (documents' records in order), each in batches of `batchSize`, calling `onBatch`
 * with the number of records after each upsert. `signal` is checked before each writer call
 * and passed to it.
 */
export async function writeRecords(input: {
  writer: KnowledgeWriter;
  stale: readonly string[];
  records: readonly (readonly KnowledgeRecord[])[];
  batchSize: number;
  signal?: AbortSignal | undefined;
  onBatch: (written: number) => void;
}): Promise<void> {
  const { writer, stale, batchSize, signal, onBatch } = input;
  for (let index = 0; index < stale.length; index += batchSize) {
    signal?.throwIfAborted();
    await writer.deleteDocuments(stale.slice(index, index + batchSize), signal === undefined ? undefined : { signal });
  }
  let batch: KnowledgeRecord[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    signal?.throwIfAborted();
    await writer.upsert(batch, signal === undefined ? undefined : { signal });
    const written = batch.length;
    batch = [];
    onBatch(written);
  };
  for (const records of input.records) {
    for (const record of records) {
      batch.push(record);
      if (batch.length >= batchSize) await flush();
    }
  }
  await flush();
}
