import type { FetchedEvidenceMeta } from "../fetch-evidence.js";
import { lookupResultMetaSchema, type LookupResultMeta } from "../lookup-result-meta.js";
import { resultMetaKey } from "../result-meta-key.js";

/** The `_meta` a `lookup_knowledge` answer carries for programs, checked against its schema. */
export function lookupMetaOf(result: unknown): LookupResultMeta {
  return lookupResultMetaSchema.parse((result as { _meta?: Record<string, unknown> })._meta?.[resultMetaKey]);
}

/** The `_meta` a `fetch_evidence` answer carries for programs. */
export function fetchMetaOf(result: unknown): FetchedEvidenceMeta {
  const meta = (result as { _meta?: Record<string, unknown> })._meta?.[resultMetaKey];
  if (meta === null || typeof meta !== "object") throw new Error(`no ${resultMetaKey} in the answer's _meta`);
  return meta as FetchedEvidenceMeta;
}

/** The content of the first evidence element of a text, or of the one whose document_id is given. */
export function evidenceContentOf(text: string, documentId?: string): string | undefined {
  // The start tag is one line (its attributes may hold ">", as a breadcrumb's "A > B" does).
  const pattern = /<evidence document_id="([^"]*)"[^\n]*>\n([\s\S]*?)\n<\/evidence>/g;
  for (const match of text.matchAll(pattern)) if (documentId === undefined || match[1] === documentId) return match[2];
  return undefined;
}
