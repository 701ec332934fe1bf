import type { MetadataFilter } from "@lookup-knowledge/core";

/**
 * One text per filter, whatever the order of its keys (`{ a: 1, b: 2 }` and `{ b: 2, a: 1 }`
 * give the same), so what is kept per scope is found again for an equal filter. Arrays keep
 * their order: `$in` lists in another order are other keys, which costs a cache entry, never
 * a wrong answer.
 */
export function filterKey(filter: MetadataFilter): string {
  return JSON.stringify(filter, (_, value: unknown) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value as Record<string, unknown>).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)),
        )
      : value,
  );
}
