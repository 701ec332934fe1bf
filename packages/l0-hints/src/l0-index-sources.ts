import type { L0Index } from "./l0-index.js";
import type { EntryTable } from "./entry-table.js";

/** The entries of each index this package built or restored, so their sources can be listed without the input. */
const entriesOf = new WeakMap<L0Index, EntryTable>();

export function rememberEntries(index: L0Index, entries: EntryTable): L0Index {
  entriesOf.set(index, entries);
  return index;
}

/**
 * The `source` of every entry of an index `createL0Index` or `restoreL0Index` made, in entry
 * order (what a knowledge base lists as its documents, without reading where they came from);
 * `undefined` for an index of your own.
 */
export function l0IndexSources(index: L0Index): string[] | undefined {
  return entriesOf
    .get(index)
    ?.all()
    .map((entry) => entry.source);
}
