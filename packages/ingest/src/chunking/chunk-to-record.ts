import { knowledgeRecordId } from "@lookup-knowledge/search-port";
import type { KnowledgeRecord } from "@lookup-knowledge/search-port";
import type { Chunk } from "./chunk.js";

/**
 * The record a store keeps for a chunk: id `{docId}#chunk-{chunkIndex}`, the chunk text as
 * content, and metadata `docId`, `chunkIndex`, `source`, `title`, `breadcrumb`,
 * `category` (when known), `keywords`, `description` (when known) and `contentHash`.
 */
export function chunkToRecord(chunk: Chunk): KnowledgeRecord {
  const metadata: Record<string, unknown> = {
    docId: chunk.docId,
    chunkIndex: chunk.chunkIndex,
    source: chunk.source,
    title: chunk.title,
    breadcrumb: chunk.breadcrumb,
  };
  if (chunk.category !== undefined) metadata["category"] = chunk.category;
  metadata["keywords"] = [...chunk.keywords];
  if (chunk.description !== undefined) metadata["description"] = chunk.description;
  metadata["contentHash"] = chunk.contentHash;
  return { id: knowledgeRecordId(chunk.docId, chunk.chunkIndex), content: chunk.content, metadata };
}
