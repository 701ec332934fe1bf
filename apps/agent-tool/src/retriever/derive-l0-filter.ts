import type { L0Hints, MetadataFilter } from "@lookup-knowledge/core";
import { equalsFilter } from "@lookup-knowledge/search-port";

/** The category field an L0 domain filters on (R7). */
export const l0FilterField = "category";

/**
 * The filter L0 hints put on the first L1 attempt (R7): `category = <domain>` when exactly
 * one domain was hinted, nothing otherwise. Domains that only generic words matched
 * (`otherDomains`) count too, so a query spanning several domains gets no filter; they never
 * create one on their own.
 */
export function deriveL0Filter(hints: L0Hints): MetadataFilter | undefined {
  const named = (list: readonly string[]) => list.map((domain) => domain.trim()).filter((domain) => domain !== "");
  const hinted = named(hints.domains);
  if (hinted.length === 0) return undefined;
  const domains = new Set([...hinted, ...named(hints.otherDomains ?? [])]);
  if (domains.size !== 1) return undefined;
  const [domain] = domains;
  return domain === undefined ? undefined : equalsFilter(l0FilterField, domain);
}
