import { errorMessage } from "@lookup-knowledge/core";
import { DocumentError } from "../document/document-error.js";
import { documentId } from "../document/document-id.js";

/** A scanned file with its `docId`, or the reason it is refused one. */
export interface PlannedFile {
  source: string;
  docId?: string;
  refused?: string;
}

/**
 * Gives each source (posix path relative to the root, in path order) its `docId` before
 * anything is read, so a docId collision always refuses the same file: the later one.
 */
export function planFiles(sources: readonly string[]): PlannedFile[] {
  const sourceOf = new Map<string, string>();
  return sources.map((source): PlannedFile => {
    try {
      const docId = documentId(source);
      const other = sourceOf.get(docId);
      if (other !== undefined) return { source, refused: `its docId "${docId}" is already taken by ${other}` };
      sourceOf.set(docId, source);
      return { source, docId };
    } catch (error) {
      return { source, refused: DocumentError.isInstance(error) ? error.reason : errorMessage(error) };
    }
  });
}
