/** The document an item belongs to: its `docId`, or the item alone when it has none. */
export function documentKey(item: { docId?: string; evidenceKey: string }): string {
  return item.docId === undefined ? `key:${item.evidenceKey}` : `doc:${item.docId}`;
}
