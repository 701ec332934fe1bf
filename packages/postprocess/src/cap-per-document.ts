import { documentKey } from "./internal/document-key.js";
import { requireWholeNumber } from "./internal/numbers.js";

/**
 * Keeps at most `max` items per document (R16, `rag.max-chunks-per-document`): the first
 * `max` of each `docId` in the given (ranked) order survive. An item without a `docId` is
 * its own document. Both lists keep the input order.
 */
export function capPerDocument<T extends { docId?: string; evidenceKey: string }>(ranked: T[], max: number): { kept: T[]; dropped: T[] } {
  requireWholeNumber("maxChunksPerDocument", max, 1);
  const counts = new Map<string, number>();
  const kept: T[] = [];
  const dropped: T[] = [];
  for (const item of ranked) {
    const document = documentKey(item);
    const count = counts.get(document) ?? 0;
    if (count < max) {
      counts.set(document, count + 1);
      kept.push(item);
    } else {
      dropped.push(item);
    }
  }
  return { kept, dropped };
}
