import type { KnowledgeEntry } from "@lookup-knowledge/core";
import type { ParsedDocument } from "./parsed-document.js";

/** The L0 knowledge entry of a document: id = `docId`, source, title, keywords, domain = category, entities. */
export function documentToEntry(document: ParsedDocument): KnowledgeEntry {
  return {
    id: document.docId,
    source: document.source,
    title: document.title,
    keywords: [...document.keywords],
    ...(document.category === undefined ? {} : { domain: document.category }),
    entities: [...document.entities],
  };
}
