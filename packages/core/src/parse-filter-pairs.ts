import { InvalidFilterError } from "./errors.js";
import type { MetadataFilter } from "./metadata-filter.js";

const decimalNumber = /^-?\d+(\.\d+)?$/;

/**
 * Reads `key=value` pairs, as people type them (the CLI's repeated `--filter`, the
 * inspector's filter lines), into one metadata filter, every pair joined by `$and`:
 *
 * - a value is a string, `{ key: { $eq: "value" } }`;
 * - `true` and `false` are booleans, `{ key: { $eq: true } }`;
 * - a decimal number matches the number or the same digits as a string,
 *   `{ key: { $in: [2024, "2024"] } }`, since metadata keeps either;
 * - the key and the value are trimmed, and the value is everything after the first `=`.
 *
 * One pair gives its own filter, none gives `undefined`, several give `{ $and: [...] }` (a key
 * given twice must match both values). An empty key or value, or a key that starts with `$`,
 * throws `InvalidFilterError` at the path `nameOf(index)` gives (default `filter[0]`, ...).
 * Pure and without Node built-ins: the inspector's page imports it too.
 */
export function parseFilterPairs(
  pairs: readonly string[],
  nameOf: (index: number) => string = (index) => `filter[${index}]`,
): MetadataFilter | undefined {
  const filters = pairs.map((pair, index): MetadataFilter => {
    const at = pair.indexOf("=");
    const key = at === -1 ? "" : pair.slice(0, at).trim();
    const raw = at === -1 ? "" : pair.slice(at + 1).trim();
    if (key === "" || raw === "") {
      throw new InvalidFilterError({ path: nameOf(index), reason: `expected key=value, got ${JSON.stringify(pair)}` });
    }
    if (key.startsWith("$")) {
      throw new InvalidFilterError({ path: nameOf(index), reason: `field names may not start with "$" (got ${JSON.stringify(key)})` });
    }
    if (decimalNumber.test(raw)) return { [key]: { $in: [Number(raw), raw] } };
    return { [key]: { $eq: raw === "true" ? true : raw === "false" ? false : raw } };
  });
  if (filters.length === 0) return undefined;
  return filters.length === 1 ? filters[0] : { $and: filters };
}
