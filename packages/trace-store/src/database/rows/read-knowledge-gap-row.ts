import type { KnowledgeGapRow } from "../../gaps/knowledge-gap-row.js";

/** The hint lists whose strings are a query's stored terms (hashed under `traces.store-query: hash`). */
const hintLists = ["keywords", "entities", "titles", "domains"] as const;

/**
 * One row of `readKnowledgeGapRows` as a `KnowledgeGapRow`; undefined when its times are not
 * ones JavaScript can hold. Every value is checked: jsonb written by another writer or by hand
 * reaches here as it is.
 */
export function readKnowledgeGapRow(value: unknown): KnowledgeGapRow | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const row = value as Record<string, unknown>;
  const firstSeen = isoTime(row["first_ms"]);
  const lastSeen = isoTime(row["last_ms"]);
  if (typeof row["query"] !== "string" || firstSeen === undefined || lastSeen === undefined) return undefined;
  const lookups = count(row["lookups"]);
  const refusedLookups = count(row["refused"]);
  return {
    query: row["query"],
    lookups,
    refusedLookups,
    lowRelevanceLookups: lookups - refusedLookups,
    firstSeen,
    lastSeen,
    bestScore: finite(row["best"]),
    bestRefusedScore: finite(row["best_refused"]),
    threshold: finite(row["threshold"]),
    hintTerms: hintTerms(json(row["hints"])),
    pages: arrays(json(row["pages"])).flatMap(([source, title, best]) =>
      typeof source === "string" ? [{ source, ...(typeof title === "string" ? { title } : {}), bestScore: finite(best) }] : [],
    ),
    recentLookups: recentLookups(json(row["recent_ids"]), json(row["recent_ms"])),
    // Days since 1970 (UTC) as the statement counts them; the report writes each group's as dates.
    perDay: arrays(json(row["per_day"])).flatMap(([day, lookups]) => {
      const days = finite(day);
      return days === null ? [] : [{ day: days, lookups: count(lookups) }];
    }),
  };
}

/**
 * The newest lookups' ids and times as the statement lists them (newest first), a pair left
 * out when either is not what it should be. Times stay numbers: most are cut by their group,
 * and only ids reach the report.
 */
function recentLookups(ids: unknown, times: unknown): KnowledgeGapRow["recentLookups"] {
  const kept: KnowledgeGapRow["recentLookups"] = { ids: [], createdAtMs: [] };
  if (!Array.isArray(ids) || !Array.isArray(times)) return kept;
  for (let index = 0; index < ids.length; index += 1) {
    const id: unknown = ids[index];
    const at = finite(times[index]);
    if (typeof id !== "string" || at === null) continue;
    kept.ids.push(id);
    kept.createdAtMs.push(at);
  }
  return kept;
}

/** A driver may hand jsonb over parsed or as text. */
function json(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

function hintTerms(hints: unknown): string[] {
  if (typeof hints !== "object" || hints === null) return [];
  const terms = new Set<string>();
  for (const list of hintLists) {
    const values = (hints as Record<string, unknown>)[list];
    if (Array.isArray(values)) for (const term of values) if (typeof term === "string" && term !== "") terms.add(term);
  }
  return [...terms];
}

function arrays(value: unknown): unknown[][] {
  return Array.isArray(value) ? value.filter((item): item is unknown[] => Array.isArray(item)) : [];
}

function finite(value: unknown): number | null {
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : null;
}

function count(value: unknown): number {
  const number = finite(value);
  return number === null ? 0 : Math.max(0, Math.round(number));
}

function isoTime(value: unknown): string | undefined {
  const milliseconds = finite(value);
  if (milliseconds === null) return undefined;
  const time = new Date(milliseconds);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}
