import { DocumentError } from "./document-error.js";

/**
 * The stable id of a document, from its path relative to the ingest root: posix
 * separators, no leading `./` or `/`, the extension dropped, Unicode NFC.
 * `"plugins/limit-req.md"` -> `"plugins/limit-req"`. Throws `DocumentError` for an empty path.
 */
export function documentId(source: string): string {
  const posix = source
    .normalize("NFC")
    .replaceAll("\\", "/")
    .replace(/^(?:\.\/|\/)+/, "");
  const slash = posix.lastIndexOf("/");
  const dot = posix.lastIndexOf(".");
  const id = dot > slash + 1 ? posix.slice(0, dot) : posix;
  if (id === "" || id.endsWith("/")) throw new DocumentError({ source, reason: "the path names no file" });
  return id;
}
