import type { MetadataFilter } from "@lookup-knowledge/core";

// Issue 36 item 5: every search reads its filter; a zod schema's first parse costs more than a
// short process's search, and zod's modules more still. A plainly valid filter is copied here,
// to the very value `validateMetadataFilter`'s schema gives (the combinators first, then the
// fields in their order; a condition's operators in the schema's order); anything else goes to
// the schema, which refuses it with its message (the tests hold the two side by side).

const operators = ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists"] as const;
type Operator = (typeof operators)[number];
const operatorSet = new Set<string>(operators);

function isScalar(value: unknown): boolean {
  return typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
}

/**
 * An object whose fields are all its own: the schema also reads fields an object inherits (a
 * filter made with `Object.create`, a class instance), so such an object is left to it.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isOperand(operator: Operator, operand: unknown): boolean {
  switch (operator) {
    case "$eq":
    case "$ne":
      return isScalar(operand);
    case "$in":
    case "$nin":
      // Every index, holes included: `every` skips holes, which the schema refuses as undefined.
      return Array.isArray(operand) && Array.from(operand).every(isScalar);
    case "$exists":
      return typeof operand === "boolean";
    default:
      return typeof operand === "number" && Number.isFinite(operand);
  }
}

function readCondition(condition: Record<string, unknown>): Record<string, unknown> | undefined {
  const keys = Object.keys(condition);
  if (keys.length === 0 || !keys.every((key) => operatorSet.has(key))) return undefined;
  const copy: Record<string, unknown> = {};
  for (const operator of operators) {
    if (!Object.hasOwn(condition, operator)) continue;
    const operand = condition[operator];
    if (!isOperand(operator, operand)) return undefined;
    copy[operator] = Array.isArray(operand) ? [...operand] : operand;
  }
  return copy;
}

function readFilters(value: unknown): unknown[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const copies: unknown[] = [];
  for (const filter of value) {
    const copy = readPlainMetadataFilter(filter);
    if (copy === undefined) return undefined;
    copies.push(copy);
  }
  return copies;
}

/** A fresh copy of a plainly valid filter, or undefined when the schema must read it (and perhaps refuse it). */
export function readPlainMetadataFilter(filter: unknown): MetadataFilter | undefined {
  if (!isPlainObject(filter)) return undefined;
  const copy: Record<string, unknown> = {};
  for (const combinator of ["$and", "$or"] as const) {
    if (!Object.hasOwn(filter, combinator)) continue;
    const filters = readFilters(filter[combinator]);
    if (filters === undefined) return undefined;
    copy[combinator] = filters;
  }
  for (const [key, value] of Object.entries(filter)) {
    if (key === "$and" || key === "$or") continue;
    if (key === "" || key.startsWith("$") || key === "__proto__") return undefined;
    if (isScalar(value)) copy[key] = value;
    else if (isPlainObject(value)) {
      const condition = readCondition(value);
      if (condition === undefined) return undefined;
      copy[key] = condition;
    } else return undefined;
  }
  return copy as MetadataFilter;
}
