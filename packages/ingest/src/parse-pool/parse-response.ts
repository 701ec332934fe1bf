import type { ParsedDocument } from "../document/parsed-document.js";

/** A parse worker's answer: the document, or why it was refused. */
export type ParseResponse = { id: number; document: ParsedDocument } | { id: number; error: { reason: string } };
