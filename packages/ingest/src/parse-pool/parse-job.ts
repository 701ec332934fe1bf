import type { ParsedDocument } from "../document/parsed-document.js";
import type { ParseRequest } from "./parse-request.js";

/** A parse asked of the pool: the request, and how to settle its promise. */
export interface ParseJob extends ParseRequest {
  resolve: (document: ParsedDocument) => void;
  reject: (error: unknown) => void;
}
