import { quantiseVector, strideFor } from "../dense/dense-matrix.js";
import type { LocalIndexState } from "../snapshot/local-index-state.js";
import type { AnalysedTerms, PendingRecord } from "../snapshot/pending-changes.js";
import type { EmbeddedRow } from "./embedded-row.js";
import type { UpsertEntry } from "./read-upsert-batch.js";

/**
 * Stages an upsert in `state`'s pending changes: each record counted into terms and
 * frequencies (`terms[index]`: its lexical terms), its vector (when given, a `number[]` or a
 * typed row) quantised straight from what the embedder gave, and the
 * committed record of the same id, if any, removed.
 */
export function stageUpserts(
  state: LocalIndexState,
  batch: readonly UpsertEntry[],
  terms: readonly AnalysedTerms[],
  vectors: readonly EmbeddedRow[] | undefined,
): void {
  const stride = strideFor(state.dimension);
  const prepared = batch.map(({ record, docId, metadataText }, index): PendingRecord => {
    const counted = state.changes().countTerms(terms[index] as AnalysedTerms);
    let codes: Int8Array | undefined;
    let inverseNorm = 0;
    const vector = vectors?.[index];
    if (vector !== undefined) {
      codes = state.changes().takeCodes(stride);
      inverseNorm = quantiseVector(vector, codes);
    }
    return {
      id: record.id,
      docId,
      content: record.content,
      metadataText,
      terms: counted.terms,
      frequencies: counted.frequencies,
      length: counted.length,
      codes,
      inverseNorm,
    };
  });
  const pendingChanges = state.changes();
  for (const record of prepared) {
    const slot = state.slotOfId(record.id);
    if (slot !== undefined) pendingChanges.remove(slot);
    pendingChanges.put(record);
  }
}
