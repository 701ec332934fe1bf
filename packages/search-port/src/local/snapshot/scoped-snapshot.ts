import type { MetadataFilter } from "@lookup-knowledge/core";
import { filterKey } from "../../filter-key.js";
import { matchesFilter } from "../../matches-filter.js";
import { sharedMetadata } from "./index-snapshot.js";
import type { IndexSnapshot } from "./index-snapshot.js";
import { mergeSnapshot } from "./merge-snapshot.js";
import { PendingChanges } from "./pending-changes.js";

/** Scopes kept per snapshot; the least recently used goes first. */
export const scopedSnapshotsKept = 8;

const scopesBySnapshot = new WeakMap<IndexSnapshot, Map<string, IndexSnapshot>>();

/**
 * The snapshot as a caller whose scope (tenant, access filter) is `scope` sees it: only the
 * records the scope admits, as if no other record had ever been written. Term statistics
 * (record counts, document frequencies, the average length), the best lexical and dense
 * scores that normalise the fused score, and so every score and answerability signal, come
 * from these records only, so no output of a scoped search depends on records outside the
 * scope (issue 33, item 2). Records keep their order; nothing is re-tokenised or re-embedded.
 *
 * The same snapshot and scope give the same object: up to `scopedSnapshotsKept` scopes, of
 * together at most twice the snapshot's own number of records, are kept per snapshot, least
 * recently used first out, and they go with it. `undefined` or `{}` is the snapshot itself.
 */
export function scopedSnapshot(snapshot: IndexSnapshot, scope: MetadataFilter | undefined, directory: string): IndexSnapshot {
  if (scope === undefined || Object.keys(scope).length === 0) return snapshot;
  const key = filterKey(scope);
  let scopes = scopesBySnapshot.get(snapshot);
  if (scopes === undefined) {
    scopes = new Map();
    scopesBySnapshot.set(snapshot, scopes);
  }
  const known = scopes.get(key);
  if (known !== undefined) {
    // Most recently used last.
    scopes.delete(key);
    scopes.set(key, known);
    return known;
  }
  const outside = new PendingChanges(snapshot.count);
  for (let slot = 0; slot < snapshot.count; slot += 1) {
    if (!matchesFilter(sharedMetadata(snapshot.records, slot, directory), scope)) outside.remove(slot);
  }
  const scoped = outside.isEmpty ? snapshot : mergeSnapshot(snapshot, outside, snapshot.vectors?.dimension ?? 0);
  // At most `scopedSnapshotsKept` scopes, holding together at most twice the snapshot's own
  // records (two tenants that share most pages both stay): many different filters cost
  // rebuilding, never memory without bound.
  let kept = scoped === snapshot ? 0 : scoped.count;
  for (const other of scopes.values()) if (other !== snapshot) kept += other.count;
  while (scopes.size > 0 && (scopes.size >= scopedSnapshotsKept || kept > 2 * snapshot.count)) {
    const oldest = scopes.keys().next().value as string;
    const dropped = scopes.get(oldest);
    if (dropped !== undefined && dropped !== snapshot) kept -= dropped.count;
    scopes.delete(oldest);
  }
  if (kept <= 2 * snapshot.count) scopes.set(key, scoped);
  return scoped;
}
