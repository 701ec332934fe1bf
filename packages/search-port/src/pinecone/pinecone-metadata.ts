import { describeValue } from "@lookup-knowledge/core";
import type { RecordMetadata } from "@pinecone-database/pinecone";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { PineconePortError } from "./pinecone-port-error.js";
import type { PineconeSettings } from "./read-pinecone-settings.js";

const maxMetadataBytes = 40_960;

/** The record's metadata as Pinecone stores it; refuses what Pinecone cannot hold, naming the record and key. */
export function pineconeMetadata(record: KnowledgeRecord, settings: PineconeSettings): RecordMetadata {
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
