import { InvalidFilterError } from "@lookup-knowledge/core";
import type { FilterValue, MetadataFilter } from "@lookup-knowledge/core";

/**
 * The filter `{ [field]: { $eq: value } }`, e.g. the L0-derived `category` filter of R7.
 * Throws `InvalidFilterError` when the field name is empty or starts with `$`.
 */
export function equalsFilter(field: string, value: FilterValue): MetadataFilter {
  if (field === "") throw new InvalidFilterError({ path: "(root)", reason: "a field name may not be empty" });
  if (field.startsWith("$")) {
    throw new InvalidFilterError({ path: field, reason: `field names may not start with "$" (got ${JSON.stringify(field)})` });
  }
  return { [field]: { $eq: value } };
}
