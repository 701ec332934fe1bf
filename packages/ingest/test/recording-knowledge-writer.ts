import type { KnowledgeRecord, KnowledgeWriter } from "@lookup-knowledge/search-port";

/** A `KnowledgeWriter` that keeps records in a Map by id and logs every call, for tests. */
export interface RecordingKnowledgeWriter extends KnowledgeWriter {
  readonly records: Map<string, KnowledgeRecord>;
  readonly calls: Array<{ method: "upsert"; ids: string[] } | { method: "deleteDocuments"; docIds: string[] }>;
  /** The records of one document, by chunk index. */
  recordsOf(docId: string): KnowledgeRecord[];
}

export function createRecordingKnowledgeWriter(): RecordingKnowledgeWriter {
  const records = new Map<string, KnowledgeRecord>();
  const calls: RecordingKnowledgeWriter["calls"] = [];
  return {
    records,
    calls,
    async upsert(batch) {
      calls.push({ method: "upsert", ids: batch.map((record) => record.id) });
      for (const record of batch) records.set(record.id, structuredClone(record));
    },
    async deleteDocuments(docIds) {
      calls.push({ method: "deleteDocuments", docIds: [...docIds] });
      const doomed = new Set(docIds);
      let count = 0;
      for (const [id, record] of records) {
        if (doomed.has(String(record.metadata["docId"]))) {
          records.delete(id);
          count += 1;
        }
      }
      return count;
    },
    recordsOf(docId) {
      return [...records.values()]
        .filter((record) => record.metadata["docId"] === docId)
        .sort((left, right) => Number(left.metadata["chunkIndex"]) - Number(right.metadata["chunkIndex"]));
    },
  };
}
