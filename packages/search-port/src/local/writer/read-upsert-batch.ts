import { readDocId } from "@lookup-knowledge/core";
import { indexedText } from "../../internal/indexed-text.js";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import { checkRecord } from "./check-record.js";

/** One record of an upsert, read when the upsert is called. */
export interface UpsertEntry {
  record: KnowledgeRecord;
  docId: string | null;
  /** What is indexed and embedded (`indexedText`). */
  text: string;
  metadataText: string;
}

/**
 * The records of an upsert, each checked (`checkRecord`) and read now, so changing them later
 * changes nothing; the latest of each id, in the order of their last occurrence.
 */
export function readUpsertBatch(records: readonly KnowledgeRecord[]): UpsertEntry[] {
  const latest = new Map<string, UpsertEntry>();
  records.forEach((input, index) => {
    const record = checkRecord(input, index);
    latest.delete(record.id);
    latest.set(record.id, {
      record,
      docId: readDocId(record.metadata) ?? null,
      text: indexedText(record),
      metadataText: JSON.stringify(record.metadata),
    });
  });
  return [...latest.values()];
}
