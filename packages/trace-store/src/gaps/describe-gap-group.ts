import { createHash } from "node:crypto";
import { queryHashPrefix } from "../record/hash-query.js";
import type { GapQueryGroup } from "./group-gap-queries.js";
import { compareText } from "./group-gap-queries.js";
import type { KnowledgeGapGroup, KnowledgeGapPage } from "./knowledge-gap-report.js";
import type { KnowledgeGapRow } from "./knowledge-gap-row.js";

/** At most this many example queries, terms and closest pages per group. */
const maxExamples = 5;
const maxTerms = 8;
const maxPages = 5;

/**
 * A group as the report shows it. Its kind: `refused-page` when the best score of its refused
 * lookups reached half the reference threshold (a page came within a factor of two of being
 * handed out: worth a review as a likely false refusal), else `missing-page`, also when none
 * was refused (its low-relevance lookups were answered, with evidence judged unlikely to
 * answer: nothing was refused to review). Half is a plain rule, the same for every threshold,
 * not fitted to any set of queries.
 */
export function describeGapGroup(group: GapQueryGroup, maxLookupIds: number): KnowledgeGapGroup {
  const rows = group.members.map((member) => member.row);
  const bestScore = maximum(rows.map((row) => row.bestScore));
  const bestRefusedScore = maximum(rows.map((row) => row.bestRefusedScore));
  const threshold = maximum(rows.map((row) => row.threshold));
  // A low-relevance lookup was answered (the gate let its evidence through): only refused ones decide.
  const refused = bestRefusedScore !== null && threshold !== null && bestRefusedScore >= threshold / 2;
  const ordered = [...rows].sort((left, right) => right.lookups - left.lookups || compareText(left.query, right.query));
  return {
    id: groupId(group.members.map(idSource)),
    kind: refused ? "refused-page" : "missing-page",
    lookups: sum(rows.map((row) => row.lookups)),
    refusedLookups: sum(rows.map((row) => row.refusedLookups)),
    lowRelevanceLookups: sum(rows.map((row) => row.lowRelevanceLookups)),
    distinctQueries: rows.length,
    firstSeen: rows.map((row) => row.firstSeen).sort(compareText)[0] ?? "",
    lastSeen:
      rows
        .map((row) => row.lastSeen)
        .sort(compareText)
        .at(-1) ?? "",
    terms: sharedTerms(group),
    examples: group.members
      .filter((member) => !member.hashed)
      .map((member) => member.row)
      .sort((left, right) => right.lookups - left.lookups || compareText(left.query, right.query))
      .slice(0, maxExamples)
      .map((row) => row.query),
    closest: closestPages(ordered),
    bestScore,
    bestRefusedScore,
    threshold,
    lookupIds: newestLookupIds(rows, maxLookupIds),
    perDay: perDay(rows.flatMap((row) => row.perDay)),
  };
}

/**
 * What a member adds to its group's id: its stored query, or, for a query kept as text that may
 * not be shown (`hash` set since), its oldest listed lookup id: an unkeyed hash of its text would let anyone
 * holding the report confirm a guessed query.
 */
function idSource(member: GapQueryGroup["members"][number]): string {
  if (!member.hashed || member.row.query.startsWith(queryHashPrefix)) return member.row.query;
  return `lookup:${member.row.recentLookups.ids.at(-1) ?? member.row.firstSeen}`;
}

/** `gap-` and 16 hex of the SHA-256 of the group's sorted stored queries (see `idSource`). */
function groupId(queries: readonly string[]): string {
  const text = [...queries].sort(compareText).join("\n");
  return `gap-${createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16)}`;
}

/**
 * The salient terms at least half the group's queries hold, and at least two of them when it
 * has more than one (all of a lone query's), most held first, then heaviest, then by text; each shown as the word its queries use most.
 */
function sharedTerms(group: GapQueryGroup): string[] {
  const held = new Map<string, { count: number; weight: number; shown: Map<string, number> }>();
  for (const member of group.members) {
    for (const [term, weight] of member.salient) {
      const entry = held.get(term) ?? { count: 0, weight, shown: new Map<string, number>() };
      entry.count += 1;
      const shown = member.terms.get(term) ?? term;
      entry.shown.set(shown, (entry.shown.get(shown) ?? 0) + 1);
      held.set(term, entry);
    }
  }
  const needed = group.members.length === 1 ? 1 : Math.max(2, Math.ceil(group.members.length / 2));
  return [...held]
    .filter(([, entry]) => entry.count >= needed)
    .sort(
      ([leftTerm, left], [rightTerm, right]) => right.count - left.count || right.weight - left.weight || compareText(leftTerm, rightTerm),
    )
    .slice(0, maxTerms)
    .map(([term, entry]) => mostUsed(entry.shown) ?? term);
}

/**
 * The group's newest `max` lookup ids: its queries' lists merged (each is newest first, then by
 * id descending), newer first, a later id first on the same millisecond. A merge, not a sort of
 * every id: a group's queries may list tens of thousands.
 */
function newestLookupIds(rows: readonly KnowledgeGapRow[], max: number): string[] {
  const next = rows.map(() => 0);
  const ids: string[] = [];
  while (ids.length < max) {
    let best = -1;
    let bestAt = 0;
    let bestId = "";
    for (let index = 0; index < rows.length; index += 1) {
      const list = (rows[index] as KnowledgeGapRow).recentLookups;
      const position = next[index] as number;
      const id = list.ids[position];
      const at = list.createdAtMs[position];
      if (id === undefined || at === undefined) continue;
      if (best < 0 || at > bestAt || (at === bestAt && compareText(id, bestId) > 0)) {
        best = index;
        bestAt = at;
        bestId = id;
      }
    }
    if (best < 0) break;
    ids.push(bestId);
    next[best] = (next[best] as number) + 1;
  }
  return ids;
}

function mostUsed(counts: Map<string, number>): string | undefined {
  return [...counts].sort(([left, a], [right, b]) => b - a || compareText(left, right))[0]?.[0];
}

/** Pages by source: best score (known first), then how many queries came near them, then source. */
function closestPages(rows: readonly GapQueryGroup["members"][number]["row"][]): KnowledgeGapPage[] {
  const pages = new Map<string, { page: KnowledgeGapPage; queries: number }>();
  for (const row of rows) {
    for (const page of row.pages) {
      const known = pages.get(page.source);
      if (!known) {
        pages.set(page.source, { page: { ...page }, queries: 1 });
        continue;
      }
      known.queries += 1;
      known.page.bestScore = maximum([known.page.bestScore, page.bestScore]);
      if (known.page.title === undefined && page.title !== undefined) known.page.title = page.title;
    }
  }
  return [...pages.values()]
    .sort(
      (left, right) =>
        (right.page.bestScore ?? -1) - (left.page.bestScore ?? -1) ||
        right.queries - left.queries ||
        compareText(left.page.source, right.page.source),
    )
    .slice(0, maxPages)
    .map((entry) => entry.page);
}

/** The group's lookups per day, summed over its queries (days since 1970, UTC), written as dates. */
function perDay(days: ReadonlyArray<{ day: number; lookups: number }>): Array<{ day: string; lookups: number }> {
  const counts = new Map<number, number>();
  for (const { day, lookups } of days) counts.set(day, (counts.get(day) ?? 0) + lookups);
  return [...counts]
    .sort(([left], [right]) => left - right)
    .map(([day, lookups]) => ({ day: new Date(day * 86_400_000).toISOString().slice(0, 10), lookups }));
}

function maximum(values: ReadonlyArray<number | null>): number | null {
  let best: number | null = null;
  for (const value of values) if (value !== null && (best === null || value > best)) best = value;
  return best;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
