import type { MetadataFilter } from "@lookup-knowledge/core";
import { libsqlFilterSql } from "./libsql-filter-sql.js";
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
  return { sql: `(${libsqlFilterSql(filter, `${table}.metadata`, args)})`, args };
}
