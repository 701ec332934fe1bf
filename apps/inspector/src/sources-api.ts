import { readIngestManifest } from "@lookup-knowledge/ingest/manifest";
import type { KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";

/** A document of the knowledge base, as the Why-not view lists it. */
export interface SourceDocument {
  docId: string;
  source: string;
  title?: string;
}

/** The answer of `GET /api/sources`: the first `limit` matches, and how many matched in all. */
export interface SourceSearch {
  documents: SourceDocument[];
  /** Every document that matched; more than `documents.length` when the list was cut at the limit. */
  total: number;
}

/**
 * `GET /api/sources?q=`: the documents of the last ingest (its manifest) whose path, title or
 * document id contains `q`, ignoring case; all of them without `q`. At most `limit` are listed:
 * a document whose path or id is exactly `q` first, then by path. `total` counts every match.
 */
export async function searchSources(knowledgeBase: KnowledgeBase, text: string, limit = 50): Promise<SourceSearch> {
  const manifest = await readIngestManifest(knowledgeBase.store.stateDirectory);
  const needle = text.trim().toLowerCase();
  const documents: SourceDocument[] = [];
  for (const [docId, document] of Object.entries(manifest?.documents ?? {})) {
    const title = document.entry.title;
    const haystack = `${document.source}\n${title ?? ""}\n${docId}`.toLowerCase();
    if (needle !== "" && !haystack.includes(needle)) continue;
    documents.push({ docId, source: document.source, ...(title ? { title } : {}) });
  }
  const exact = (document: SourceDocument) =>
    needle !== "" && (document.source.toLowerCase() === needle || document.docId.toLowerCase() === needle) ? 0 : 1;
  documents.sort((a, b) => exact(a) - exact(b) || a.source.localeCompare(b.source));
  return { documents: documents.slice(0, limit), total: documents.length };
}
