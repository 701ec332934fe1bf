import type { FieldCondition, FilterValue, MetadataFilter } from "@lookup-knowledge/core";

/** A Pinecone metadata filter, as the `filter` of a query or a records search. */
export type PineconeFilter = Record<string, unknown>;

type Clause = PineconeFilter | boolean;

/**
 * Translates a (validated) `MetadataFilter` into a Pinecone filter that selects exactly the
 * records the reference `matchesFilter` accepts. Returns `true` when the filter accepts every
 * record (send no filter) and `false` when it accepts none (do not query).
 *
 * Pinecone's filter language is the reference's, with differences the translation covers:
 * - `$ne` and `$nin` in Pinecone do not match records that lack the field; the reference
 *   does, so each becomes `{ $or: [ <condition>, { field: { $exists: false } } ] }`;
 * - `$in` / `$nin` in Pinecone take strings and numbers only; booleans become `$eq` / `$ne`;
 * - an empty `$in` matches nothing and an empty `$nin` everything (Pinecone refuses both);
 * - a bare value becomes `{ $eq: value }`, several operators on one field become an `$and`
 *   of single-operator conditions, and nested `$and` / `$or` are flattened where possible.
 */
export function toPineconeFilter(filter: MetadataFilter): PineconeFilter | boolean {
  return translateFilter(filter);
}

function translateFilter(filter: MetadataFilter): Clause {
  const clauses: Clause[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (key === "$and") clauses.push(and((value as MetadataFilter[]).map(translateFilter)));
    else if (key === "$or") clauses.push(or((value as MetadataFilter[]).map(translateFilter)));
    else clauses.push(translateField(key, value as FilterValue | FieldCondition));
  }
  return and(clauses);
}

function translateField(field: string, condition: FilterValue | FieldCondition): Clause {
  if (typeof condition !== "object" || condition === null) return { [field]: { $eq: condition } };
  const clauses: Clause[] = [];
  for (const [operator, operand] of Object.entries(condition)) {
    if (operand === undefined) continue;
    clauses.push(translateOperator(field, operator, operand));
  }
  return and(clauses);
}

function translateOperator(field: string, operator: string, operand: unknown): Clause {
  const missing = { [field]: { $exists: false } };
  switch (operator) {
    case "$eq":
    case "$gt":
    case "$gte":
    case "$lt":
    case "$lte":
      return { [field]: { [operator]: operand } };
    case "$exists":
      return { [field]: { $exists: operand } };
    case "$ne":
      return or([{ [field]: { $ne: operand } }, missing]);
    case "$in": {
      const { listed, booleans } = splitList(operand);
      return or([...(listed.length > 0 ? [{ [field]: { $in: listed } }] : []), ...booleans.map((value) => ({ [field]: { $eq: value } }))]);
    }
    case "$nin": {
      const { listed, booleans } = splitList(operand);
      const present = and([
        ...(listed.length > 0 ? [{ [field]: { $nin: listed } }] : []),
        ...booleans.map((value) => ({ [field]: { $ne: value } })),
      ]);
      return present === true ? true : or([present, missing]);
    }
    default:
      // validateMetadataFilter refuses unknown operators; the reference never satisfies one.
      return false;
  }
}

function splitList(operand: unknown): { listed: Array<string | number>; booleans: boolean[] } {
  const listed: Array<string | number> = [];
  const booleans: boolean[] = [];
  for (const value of Array.isArray(operand) ? operand : []) {
    if (typeof value === "boolean") {
      if (!booleans.includes(value)) booleans.push(value);
    } else if (typeof value === "string" || typeof value === "number") {
      listed.push(value);
    }
  }
  return { listed, booleans };
}

function and(clauses: Clause[]): Clause {
  const parts: PineconeFilter[] = [];
  for (const clause of clauses) {
    if (clause === false) return false;
    if (clause === true) continue;
    if (isOnly(clause, "$and")) parts.push(...(clause["$and"] as PineconeFilter[]));
    else parts.push(clause);
  }
  if (parts.length === 0) return true;
  if (parts.length === 1) return parts[0] as PineconeFilter;
  return { $and: parts };
}

function or(clauses: Clause[]): Clause {
  const parts: PineconeFilter[] = [];
  for (const clause of clauses) {
    if (clause === true) return true;
    if (clause === false) continue;
    if (isOnly(clause, "$or")) parts.push(...(clause["$or"] as PineconeFilter[]));
    else parts.push(clause);
  }
  if (parts.length === 0) return false;
  if (parts.length === 1) return parts[0] as PineconeFilter;
  return { $or: parts };
}

function isOnly(clause: PineconeFilter, key: "$and" | "$or"): boolean {
  const keys = Object.keys(clause);
  return keys.length === 1 && keys[0] === key && Array.isArray(clause[key]);
}
