import { InvalidFilterError, type MetadataFilter } from "@lookup-knowledge/core";
import { andFilters, equalsFilter } from "@lookup-knowledge/search-port";

/**
 * Turns repeated `--filter key=value` options into one caller filter, all pairs joined by
 * `$and`. A value is a string (`{ key: { $eq: "value" } }`); `true` and `false` are
 * booleans; a decimal number matches the number or the same digits as a string
 * (`{ key: { $in: [2024, "2024"] } }`), since metadata keeps either.
 */
export function parseFilterOptions(pairs: readonly string[]): MetadataFilter | undefined {
  const filters = pairs.map((pair, index) => {
    const at = pair.indexOf("=");
    const key = at === -1 ? "" : pair.slice(0, at).trim();
    const raw = at === -1 ? "" : pair.slice(at + 1).trim();
    if (key === "" || raw === "") {
      throw new InvalidFilterError({ path: `--filter[${index}]`, reason: `expected key=value, got ${JSON.stringify(pair)}` });
    }
    if (/^-?\d+(\.\d+)?$/.test(raw)) return { [key]: { $in: [Number(raw), raw] } };
    const value = raw === "true" ? true : raw === "false" ? false : raw;
    return equalsFilter(key, value);
  });
  return andFilters(...filters);
}
