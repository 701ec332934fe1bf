import type { FieldCondition, FilterValue, MetadataFilter } from "@lookup-knowledge/core";
import { VectorStorePortError } from "./vector-store-port-error.js";

/** A SQL condition with named arguments, as `LibSQLVectorStore` takes a filter: `{ sql, args }`. */
export interface LibsqlFilter {
  sql: string;
  args: Record<string, string | number>;
}

const tableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Translates a (validated) `MetadataFilter` into a SQL condition over the JSON `metadata`
 * column of `LibSQLVectorStore`'s table, with the reference semantics of `matchesFilter`:
 * strict types (`json_type`: the number 2020 is not the string "2020", booleans are not
 * numbers), list fields matched element by element (`json_each`), missing and `null`
 * fields treated alike (`$ne` / `$nin` match them, ranges do not), `$in: []` matching
 * nothing. Every value is a bound argument; field names go in as bound JSON paths.
 *
 * The store's own object filter (`SqliteWhereBuilder`) compares `json_extract` values without
 * types and does not look into lists, so it is not used. A field name holding `"` cannot be
 * written as a SQLite JSON path and is refused with `unsupported_filter`.
 */
export function toLibsqlFilter(filter: MetadataFilter, table = "vectors"): LibsqlFilter {
  if (!tableName.test(table)) {
    throw new VectorStorePortError({
      code: "unsupported_filter",
      store: "libsql",
      operation: "translateFilter",
      message: `LibSQL table name ${JSON.stringify(table)} is not a plain identifier`,
    });
  }
  const args: Record<string, string | number> = {};
  const column = `${table}.metadata`;
  const bind = (value: string | number): string => {
    const name = `lkf${Object.keys(args).length}`;
    args[name] = value;
    return `:${name}`;
  };

  const translateFilter = (part: MetadataFilter): string => {
    const clauses: string[] = [];
    for (const [key, value] of Object.entries(part)) {
      if (value === undefined) continue;
      if (key === "$and") clauses.push(join((value as MetadataFilter[]).map(translateFilter), "AND", "1"));
      else if (key === "$or") clauses.push(join((value as MetadataFilter[]).map(translateFilter), "OR", "0"));
      else clauses.push(translateField(key, value as FilterValue | FieldCondition));
    }
    return join(clauses, "AND", "1");
  };

  const translateField = (field: string, condition: FilterValue | FieldCondition): string => {
    if (field.includes('"')) {
      throw new VectorStorePortError({
        code: "unsupported_filter",
        store: "libsql",
        operation: "translateFilter",
        message: `LibSQL cannot filter on the field ${JSON.stringify(field)}: a JSON path cannot hold a double quote`,
      });
    }
    const path = bind(`$."${field}"`);
    if (typeof condition !== "object" || condition === null) return equals(path, condition);
    const clauses: string[] = [];
    for (const [operator, operand] of Object.entries(condition)) {
      if (operand === undefined) continue;
      clauses.push(translateOperator(path, field, operator, operand));
    }
    return join(clauses, "AND", "1");
  };

  const equals = (path: string, value: unknown): string => {
    let element: string;
    if (typeof value === "string") element = `type = 'text' AND value = ${bind(value)}`;
    else if (typeof value === "number") element = `type IN ('integer', 'real') AND value = ${bind(value)}`;
    else if (typeof value === "boolean") element = `type = '${value ? "true" : "false"}'`;
    else return "0";
    // json_each walks a list's elements, or yields a scalar as its one row; objects are not values.
    return `IFNULL(json_type(${column}, ${path}) <> 'object' AND EXISTS (SELECT 1 FROM json_each(${column}, ${path}) WHERE ${element}), 0)`;
  };

  const compare = (path: string, operator: string, operand: unknown): string => {
    if (typeof operand !== "number") return "0";
    return `IFNULL(json_type(${column}, ${path}) IN ('integer', 'real') AND json_extract(${column}, ${path}) ${operator} ${bind(operand)}, 0)`;
  };

  const translateOperator = (path: string, field: string, operator: string, operand: unknown): string => {
    switch (operator) {
      case "$eq":
        return equals(path, operand);
      case "$ne":
        return `NOT ${equals(path, operand)}`;
      case "$in":
        return join(
          (Array.isArray(operand) ? operand : []).map((value) => equals(path, value)),
          "OR",
          "0",
        );
      case "$nin":
        return `NOT ${join(
          (Array.isArray(operand) ? operand : []).map((value) => equals(path, value)),
          "OR",
          "0",
        )}`;
      case "$gt":
        return compare(path, ">", operand);
      case "$gte":
        return compare(path, ">=", operand);
      case "$lt":
        return compare(path, "<", operand);
      case "$lte":
        return compare(path, "<=", operand);
      case "$exists": {
        const present = `IFNULL(json_type(${column}, ${path}) <> 'null', 0)`;
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
  };

  return { sql: `(${translateFilter(filter)})`, args };
}

function join(clauses: string[], operator: "AND" | "OR", empty: string): string {
  if (clauses.length === 0) return empty;
  if (clauses.length === 1) return clauses[0] as string;
  return `(${clauses.join(` ${operator} `)})`;
}
