import { readIngestManifest } from "@lookup-knowledge/ingest";
import type { KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";

/** A document of the knowledge base, as the Why-not view lists it. */
export interface SourceDocument {
  docId: string;
  source: string;
  title?: string;
}

/**
 * `GET /api/sources?q=`: the documents of the last ingest (its manifest) whose path or title
 * contains `q`, ignoring case; all of them (up to `limit`) without `q`.
 */
export async function searchSources(knowledgeBase: KnowledgeBase, text: string, limit = 50): Promise<SourceDocument[]> {
  const manifest = await readIngestManifest(knowledgeBase.store.stateDirectory);
  const needle = text.trim().toLowerCase();
  const documents: SourceDocument[] = [];
  for (const [docId, document] of Object.entries(manifest?.documents ?? {})) {
    const title = document.entry.title;
    const haystack = `${document.source}\n${title ?? ""}`.toLowerCase();
    if (needle !== "" && !haystack.includes(needle)) continue;
    documents.push({ docId, source: document.source, ...(title ? { title } : {}) });
  }
  documents.sort((a, b) => a.source.localeCompare(b.source));
  return documents.slice(0, limit);
}
