import { InvalidWriteError } from "../../invalid-write-error.js";
import type { KnowledgeRecord } from "../../knowledge-record.js";

/** The record, once its id and content are strings and its metadata an object; else an `InvalidWriteError` naming it. */
export function checkRecord(record: unknown, index: number): KnowledgeRecord {
  const invalidRecord = (message: string) => new InvalidWriteError({ code: "invalid_record", operation: "upsert", message });
  const where = `upsert: record ${index}`;
  if (typeof record !== "object" || record === null) throw invalidRecord(`${where} is not an object`);
  const { id, content, metadata } = record as Partial<KnowledgeRecord>;
  if (typeof id !== "string" || id === "") throw invalidRecord(`${where} needs a non-empty string id (got ${JSON.stringify(id)})`);
  if (typeof content !== "string") throw invalidRecord(`${where} (${id}) needs string content`);
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
    throw invalidRecord(`${where} (${id}) needs a metadata object`);
  }
  return { id, content, metadata };
}
