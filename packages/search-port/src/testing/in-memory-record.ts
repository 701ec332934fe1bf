/** One chunk held by the in-memory port. `metadata.docId` / `doc_id` ties it to its document. */
export interface InMemoryRecord {
  id: string;
  content: string;
  metadata: Record<string, unknown>;
}
