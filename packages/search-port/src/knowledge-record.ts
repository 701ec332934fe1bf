/**
 * One chunk as it is written to a store. `id` is `{docId}#chunk-{chunkIndex}`, so a store
 * can list a document's chunks by prefix; `metadata` carries at least `docId`,
 * `chunkIndex` and `source`, and usually `title`, `breadcrumb`, `category`, `keywords`,
 * `description` and `contentHash`.
 */
export interface KnowledgeRecord {
  id: string;
  content: string;
  metadata: Record<string, unknown>;
}

/** The id of a chunk record: `{docId}#chunk-{chunkIndex}`. */
export function knowledgeRecordId(docId: string, chunkIndex: number): string {
  return `${docId}#chunk-${chunkIndex}`;
}
