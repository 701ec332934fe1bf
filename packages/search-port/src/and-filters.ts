import type { MetadataFilter } from "@lookup-knowledge/core";

/**
 * Joins filters so that a record must satisfy all of them: `{ $and: [...] }`.
 *
 * - `undefined` and empty filters (`{}`, `{ $and: [] }`) are skipped.
 * - One filter left: it is returned as given. None left: `undefined`.
 * - A filter that is only `{ $and: [...] }` contributes its parts, so nesting stays flat.
 *
 * The inputs are never mutated; the result may share sub-objects with them. Because every
 * input ends up as a conjunct, a caller's filter (tenant, access scope) is kept whatever is
 * combined with it (R12).
 */
export function andFilters(...filters: Array<MetadataFilter | undefined>): MetadataFilter | undefined {
  const present = filters.filter((filter): filter is MetadataFilter => filter !== undefined && !isEmptyFilter(filter));
  if (present.length === 0) return undefined;
  if (present.length === 1) return present[0];
  const parts: MetadataFilter[] = [];
  for (const filter of present) collectConjuncts(filter, parts);
  return { $and: parts };
}

function collectConjuncts(filter: MetadataFilter, parts: MetadataFilter[]): void {
  if (isEmptyFilter(filter)) return;
  if (!isPureAnd(filter)) {
    parts.push(filter);
    return;
  }
  for (const part of filter.$and ?? []) collectConjuncts(part, parts);
}

/** `{ $and: [...] }` and nothing else (keys holding `undefined` do not count). */
function isPureAnd(filter: MetadataFilter): boolean {
  if (!Array.isArray(filter.$and)) return false;
  return Object.entries(filter).every(([key, value]) => key === "$and" || value === undefined);
}

function isEmptyFilter(filter: MetadataFilter): boolean {
  return Object.entries(filter).every(
    ([key, value]) => value === undefined || (key === "$and" && Array.isArray(value) && value.every(isEmptyFilter)),
  );
}
