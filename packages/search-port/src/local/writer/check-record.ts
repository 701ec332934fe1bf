import { readDocId } from "@lookup-knowledge/core";
import { InvalidWriteError } from "../../invalid-write-error.js";
import type { KnowledgeRecord } from "../../knowledge-record.js";

/** A surrogate not in a pair: written to the keys file as U+FFFD, so the text read back differs. */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The record, once its id and content are strings and its metadata an object, its id and
 * document id well-formed Unicode (else the id stored would never match the same id upserted
 * or deleted again); else an `InvalidWriteError` naming it.
 */
export function checkRecord(record: unknown, index: number): KnowledgeRecord {
  const invalidRecord = (message: string) => new InvalidWriteError({ code: "invalid_record", operation: "upsert", message });
  const where = `upsert: record ${index}`;
  if (typeof record !== "object" || record === null) throw invalidRecord(`${where} is not an object`);
  const { id, content, metadata } = record as Partial<KnowledgeRecord>;
  if (typeof id !== "string" || id === "") throw invalidRecord(`${where} needs a non-empty string id (got ${JSON.stringify(id)})`);
  if (loneSurrogate.test(id))
    throw invalidRecord(`${where} has an id that is not well-formed Unicode (a lone surrogate): ${JSON.stringify(id)}`);
  if (typeof content !== "string") throw invalidRecord(`${where} (${id}) needs string content`);
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
    throw invalidRecord(`${where} (${id}) needs a metadata object`);
  }
  const docId = readDocId(metadata);
  if (docId !== undefined && loneSurrogate.test(docId)) {
    throw invalidRecord(`${where} (${id}) has a docId that is not well-formed Unicode (a lone surrogate): ${JSON.stringify(docId)}`);
  }
  return { id, content, metadata };
}
