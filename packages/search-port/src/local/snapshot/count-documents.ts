/** Distinct documents: distinct doc ids, plus one per record without one. */
export function countDocuments(docIds: ReadonlyArray<string | null>): number {
  const seen = new Set<string>();
  let without = 0;
  for (const docId of docIds) {
    if (docId === null) without += 1;
    else seen.add(docId);
  }
  return seen.size + without;
}
