import { emptyL0Hints, type KnowledgeEntry, type MetadataFilter } from "@lookup-knowledge/core";
import type { L0Index } from "@lookup-knowledge/l0-hints";
import { filterKey, matchesFilter } from "@lookup-knowledge/search-port";

/** Scopes whose L0 index is kept; the least recently used goes first. */
export const scopedL0IndexesKept = 16;

/**
 * The L0 index a caller's filter sees (issue 33, item 2): only the entries the filter admits,
 * as it admits their documents' chunks (`entryScopeMetadata`; an entry that lacks a field the
 * filter names is never admitted), with the terms that are
 * common counted inside the scope when the index can (`isCommonTermIn`), so hints,
 * the L0 filter they derive and every output built on them reveal nothing of documents the
 * caller cannot read. No filter: the index itself. An index without `within` gives no hints
 * under a filter. Up to `scopedL0IndexesKept` scopes are kept.
 */
export function scopedL0Indexes(l0Index: L0Index): (filter: MetadataFilter | undefined) => L0Index {
  const kept = new Map<string, L0Index>();
  return (filter) => {
    if (filter === undefined || Object.keys(filter).length === 0) return l0Index;
    const key = filterKey(filter);
    const known = kept.get(key);
    if (known !== undefined) {
      kept.delete(key);
      kept.set(key, known);
      return known;
    }
    const fields = filterFields(filter);
    let scoped: L0Index;
    try {
      scoped =
        l0Index.within === undefined
          ? noHints
          : l0Index.within({ filter, admits: (entry) => admitsEntry(entryScopeMetadata(entry), filter, fields) });
    } catch {
      // The scope's statistics could not be read (the store failed or closed): no hints for
      // this lookup rather than a lookup that throws; the next one tries again.
      return noHints;
    }
    if (kept.size >= scopedL0IndexesKept) kept.delete(kept.keys().next().value as string);
    kept.set(key, scoped);
    return scoped;
  };
}

/**
 * Whether a filter admits an entry. It fails closed: an entry must hold every field the filter
 * names, so `{ tenant: { $ne: "b" } }` or an `$or` with `$exists: false` never admits an entry
 * that says nothing of its tenant (its document's chunks may well say "b").
 */
function admitsEntry(metadata: Record<string, unknown>, filter: MetadataFilter, fields: readonly string[]): boolean {
  for (const field of fields) if (metadata[field] === undefined || metadata[field] === null) return false;
  return matchesFilter(metadata, filter);
}

/** The metadata fields a filter names, through `$and` and `$or`. */
export function filterFields(filter: MetadataFilter): string[] {
  const fields = new Set<string>();
  const visit = (part: MetadataFilter): void => {
    for (const [key, condition] of Object.entries(part)) {
      if (key === "$and" || key === "$or") {
        if (Array.isArray(condition)) for (const inner of condition) visit(inner as MetadataFilter);
      } else if (condition !== undefined) {
        fields.add(key);
      }
    }
  };
  visit(filter);
  return [...fields];
}

/** An index of no entries: what an index that cannot scope itself answers under a filter. */
const noHints: L0Index = Object.freeze({ size: 0, match: () => emptyL0Hints() });

/**
 * What a filter reads of an entry: the metadata the ingest gives each chunk of its document
 * (`docId`, `source`, `title`, `category`, `keywords`), then the entry's own `metadata`.
 */
export function entryScopeMetadata(entry: KnowledgeEntry): Record<string, unknown> {
  return {
    docId: entry.id,
    source: entry.source,
    ...(entry.title === undefined ? {} : { title: entry.title }),
    ...(entry.domain === undefined ? {} : { category: entry.domain }),
    keywords: entry.keywords ?? [],
    ...entry.metadata,
  };
}
