import type { MetadataFilter } from "@lookup-knowledge/core";
import { matchesFilter } from "@lookup-knowledge/search-port";

export interface FilterClause {
  clause: MetadataFilter;
  origin: "caller" | "l0";
}

/** The conjuncts of a filter: each top-level field condition, `$or`, and each part of `$and`, as its own clause. */
function conjuncts(filter: MetadataFilter | undefined): MetadataFilter[] {
  if (!filter) return [];
  const parts: MetadataFilter[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (condition === undefined) continue;
    if (key === "$and" && Array.isArray(condition)) parts.push(...(condition as MetadataFilter[]).flatMap(conjuncts));
    else parts.push({ [key]: condition } as MetadataFilter);
  }
  return parts;
}

/** The clauses of an attempt's filter, the caller's first, then the L0 one. */
export function filterClauses(callerFilter: MetadataFilter | undefined, l0Filter: MetadataFilter | undefined): FilterClause[] {
  return [
    ...conjuncts(callerFilter).map((clause) => ({ clause, origin: "caller" as const })),
    ...conjuncts(l0Filter).map((clause) => ({ clause, origin: "l0" as const })),
  ];
}

/** The first clause the metadata fails (with the same semantics as the stores), if any. */
export function failingClause(metadata: Record<string, unknown>, clauses: readonly FilterClause[]): FilterClause | undefined {
  return clauses.find((clause) => !matchesFilter(metadata, clause.clause));
}
