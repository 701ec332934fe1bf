import type { FieldCondition, FilterValue, MetadataFilter } from "@lookup-knowledge/core";

/**
 * The reference semantics of a metadata filter, in memory. Test ports and the conformance
 * suite use it; adapters translate filters so that their store agrees with it.
 *
 * - Top-level conditions are joined by AND; `$and` needs every part, `$or` at least one.
 *   `undefined` or `{}` matches everything; `{ $or: [] }` matches nothing.
 * - A bare value is `$eq`. Several operators on one field must all hold.
 * - A field is missing when absent, `undefined` or `null`: `$eq`, `$in`, `$gt`, `$gte`,
 *   `$lt`, `$lte` are false; `$ne` and `$nin` are true; `$exists: true` is false.
 * - Array-valued metadata (e.g. a list of tags): `$eq` and `$in` match when any element
 *   matches; `$ne` and `$nin` match when no element does; range operators never match.
 * - Values compare strictly by type: the number `1` does not equal the string `"1"`; range
 *   operators only compare numbers with numbers.
 * - A filter key holding `undefined` adds no condition (as it would vanish in JSON).
 */
export function matchesFilter(metadata: Record<string, unknown>, filter: MetadataFilter | undefined): boolean {
  if (filter === undefined) return true;
  for (const [key, condition] of Object.entries(filter)) {
    if (condition === undefined) continue;
    if (key === "$and") {
      if (!asFilters(condition).every((part) => matchesFilter(metadata, part))) return false;
    } else if (key === "$or") {
      if (!asFilters(condition).some((part) => matchesFilter(metadata, part))) return false;
    } else if (!matchesField(fieldValue(metadata, key), condition as FilterValue | FieldCondition)) {
      return false;
    }
  }
  return true;
}

function asFilters(value: unknown): MetadataFilter[] {
  return Array.isArray(value) ? (value as MetadataFilter[]) : [];
}

function fieldValue(metadata: Record<string, unknown>, field: string): unknown {
  return Object.hasOwn(metadata, field) ? metadata[field] : undefined;
}

function matchesField(value: unknown, condition: FilterValue | FieldCondition): boolean {
  if (typeof condition !== "object" || condition === null) return equalsAny(value, condition);
  const missing = value === undefined || value === null;
  for (const [operator, operand] of Object.entries(condition)) {
    if (operand === undefined) continue;
    if (!holds(operator, value, missing, operand)) return false;
  }
  return true;
}

function holds(operator: string, value: unknown, missing: boolean, operand: unknown): boolean {
  switch (operator) {
    case "$eq":
      return equalsAny(value, operand);
    case "$ne":
      return !equalsAny(value, operand);
    case "$in":
      return Array.isArray(operand) && operand.some((candidate) => equalsAny(value, candidate));
    case "$nin":
      return !(Array.isArray(operand) && operand.some((candidate) => equalsAny(value, candidate)));
    case "$exists":
      return operand === !missing;
    case "$gt":
      return compares(value, operand, (left, right) => left > right);
    case "$gte":
      return compares(value, operand, (left, right) => left >= right);
    case "$lt":
      return compares(value, operand, (left, right) => left < right);
    case "$lte":
      return compares(value, operand, (left, right) => left <= right);
    default:
      // An unknown operator is never satisfied: refusing is safer than ignoring a condition.
      return false;
  }
}

/** `value` equals `expected`, or holds it as an element when `value` is an array. */
function equalsAny(value: unknown, expected: unknown): boolean {
  if (Array.isArray(value)) return value.some((element) => equalsScalar(element, expected));
  return equalsScalar(value, expected);
}

function equalsScalar(value: unknown, expected: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== typeof expected) return false;
  return value === expected;
}

function compares(value: unknown, operand: unknown, test: (left: number, right: number) => boolean): boolean {
  if (typeof value !== "number" || typeof operand !== "number") return false;
  if (Number.isNaN(value) || Number.isNaN(operand)) return false;
  return test(value, operand);
}
