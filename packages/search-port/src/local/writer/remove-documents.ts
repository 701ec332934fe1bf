import type { LocalIndexState } from "../snapshot/local-index-state.js";

/** Stages the removal of every record of the documents `wanted` (committed or pending) in `state`; returns how many went. */
export function removeDocuments(state: LocalIndexState, wanted: ReadonlySet<string>): number {
  const pendingChanges = state.changes();
  let removed = 0;
  for (const docId of wanted) {
    for (const slot of state.slotsOfDocument(docId)) if (pendingChanges.remove(slot)) removed += 1;
  }
  for (const [id, record] of pendingChanges.added) {
    if (record.docId !== null && wanted.has(record.docId)) {
      pendingChanges.drop(id);
      removed += 1;
    }
  }
  return removed;
}
