import type { ParsedEntry } from "./parse-knowledge-entries.js";

/**
 * The entries of an index as its matcher reads them: how many, each one by position (only the
 * entries a query returns are read), and each entry's domain as a number. A snapshot reads an
 * entry only when it is asked for, so a lookup does not decode every entry at open.
 */
export interface EntryTable {
  readonly count: number;
  at(position: number): ParsedEntry;
  /** Every entry, in order (for `within` and the sources). */
  all(): ParsedEntry[];
  /** Index into `domainNames` of each entry's domain, -1 without one. */
  readonly entryDomain: Int32Array;
  readonly domainNames: readonly string[];
}

/** The table of entries held in an array. */
export function arrayEntryTable(entries: ParsedEntry[]): EntryTable {
  const entryDomain = new Int32Array(entries.length).fill(-1);
  const domainNames: string[] = [];
  const domainIds = new Map<string, number>();
  entries.forEach((entry, position) => {
    if (entry.domain === undefined) return;
    let id = domainIds.get(entry.domain);
    if (id === undefined) {
      id = domainNames.length;
      domainIds.set(entry.domain, id);
      domainNames.push(entry.domain);
    }
    entryDomain[position] = id;
  });
  return { count: entries.length, at: (position) => entries[position] as ParsedEntry, all: () => entries, entryDomain, domainNames };
}
