import type { FieldCondition, FilterValue, MetadataFilter } from "@lookup-knowledge/core";
import { VectorStorePortError } from "./vector-store-port-error.js";

/** Where the conditions look (the JSON `metadata` column) and how a value becomes a bound argument. */
interface SqlTarget {
  column: string;
  bind(value: string | number): string;
}

/**
 * The SQL condition of a (validated) `MetadataFilter` over the JSON column `column`, its values
 * bound as named arguments added to `args` (`:lkf0`, `:lkf1`, ...): the translation
 * `toLibsqlFilter` documents.
 */
export function libsqlFilterSql(filter: MetadataFilter, column: string, args: Record<string, string | number>): string {
  const bind = (value: string | number): string => {
    const name = `lkf${Object.keys(args).length}`;
    args[name] = value;
    return `:${name}`;
  };
  return translateFilter({ column, bind }, filter);
}

function translateFilter(target: SqlTarget, part: MetadataFilter): string {
  const clauses: string[] = [];
  for (const [key, value] of Object.entries(part)) {
    if (value === undefined) continue;
    if (key === "$and")
      clauses.push(
        join(
          (value as MetadataFilter[]).map((inner) => translateFilter(target, inner)),
          "AND",
          "1",
        ),
      );
    else if (key === "$or")
      clauses.push(
        join(
          (value as MetadataFilter[]).map((inner) => translateFilter(target, inner)),
          "OR",
          "0",
        ),
      );
    else clauses.push(translateField(target, key, value as FilterValue | FieldCondition));
  }
  return join(clauses, "AND", "1");
}

function translateField(target: SqlTarget, field: string, condition: FilterValue | FieldCondition): string {
  if (field.includes('"')) {
    throw new VectorStorePortError({
      code: "unsupported_filter",
      store: "libsql",
      operation: "translateFilter",
      message: `LibSQL cannot filter on the field ${JSON.stringify(field)}: a JSON path cannot hold a double quote`,
    });
  }
  const path = target.bind(`$."${field}"`);
  if (typeof condition !== "object" || condition === null) return equals(target, path, condition);
  const clauses: string[] = [];
  for (const [operator, operand] of Object.entries(condition)) {
    if (operand === undefined) continue;
    clauses.push(translateOperator(target, path, field, operator, operand));
  }
  return join(clauses, "AND", "1");
}

function equals(target: SqlTarget, path: string, value: unknown): string {
  const { column, bind } = target;
  let element: string;
  if (typeof value === "string") element = `type = 'text' AND value = ${bind(value)}`;
  else if (typeof value === "number") element = `type IN ('integer', 'real') AND value = ${bind(value)}`;
  else if (typeof value === "boolean") element = `type = '${value ? "true" : "false"}'`;
  else return "0";
  // json_each walks a list's elements, or yields a scalar as its one row; objects are not values.
  return `IFNULL(json_type(${column}, ${path}) <> 'object' AND EXISTS (SELECT 1 FROM json_each(${column}, ${path}) WHERE ${element}), 0)`;
}

function compare(target: SqlTarget, path: string, operator: string, operand: unknown): string {
  if (typeof operand !== "number") return "0";
  const { column, bind } = target;
  return `IFNULL(json_type(${column}, ${path}) IN ('integer', 'real') AND json_extract(${column}, ${path}) ${operator} ${bind(operand)}, 0)`;
}

function translateOperator(target: SqlTarget, path: string, field: string, operator: string, operand: unknown): string {
  switch (operator) {
    case "$eq":
      return equals(target, path, operand);
    case "$ne":
      return `NOT ${equals(target, path, operand)}`;
    case "$in":
      return join(
        (Array.isArray(operand) ? operand : []).map((value) => equals(target, path, value)),
        "OR",
        "0",
      );
    case "$nin":
      return `NOT ${join(
        (Array.isArray(operand) ? operand : []).map((value) => equals(target, path, value)),
        "OR",
        "0",
      )}`;
    case "$gt":
      return compare(target, path, ">", operand);
    case "$gte":
      return compare(target, path, ">=", operand);
    case "$lt":
      return compare(target, path, "<", operand);
    case "$lte":
      return compare(target, path, "<=", operand);
    case "$exists": {
      const present = `IFNULL(json_type(${target.column}, ${path}) <> 'null', 0)`;
      return operand === true ? present : `NOT ${present}`;
    }
    default:
      throw new VectorStorePortError({
        code: "unsupported_filter",
        store: "libsql",
        operation: "translateFilter",
        message: `LibSQL filter translation does not know the operator ${operator} on ${JSON.stringify(field)}`,
      });
  }
}

function join(clauses: string[], operator: "AND" | "OR", empty: string): string {
  if (clauses.length === 0) return empty;
  if (clauses.length === 1) return clauses[0] as string;
  return `(${clauses.join(` ${operator} `)})`;
}
