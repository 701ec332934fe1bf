import type { GapQuery } from "./gap-query.js";

/** A topic: its first query (the most asked) and every query that joined it. */
export interface GapQueryGroup {
  leader: GapQuery;
  members: GapQuery[];
}

/**
 * Groups queries that share their salient terms, deterministically: queries in order of
 * lookups (most first), then stored text; each joins the group whose first query shares the
 * most salient weight with it, when that is at least a third of the salient weight of the
 * lighter of the two (one rare word of three, e.g. `kubernetes` in "kubernetes helm chart"),
 * else starts a group. Comparing with a group's first query only (not any member)
 * keeps a chain of queries that each share a word with the next from merging unrelated topics.
 */
export function groupGapQueries(queries: readonly GapQuery[]): GapQueryGroup[] {
  const ordered = [...queries].sort((left, right) => right.row.lookups - left.row.lookups || compareText(left.row.query, right.row.query));
  const groups: GapQueryGroup[] = [];
  const groupsByTerm = new Map<string, number[]>();
  for (const query of ordered) {
    const shared = new Map<number, number>();
    for (const [term, weight] of query.salient) {
      for (const index of groupsByTerm.get(term) ?? []) {
        const leaderWeight = groups[index]?.leader.salient.get(term);
        if (leaderWeight !== undefined) shared.set(index, (shared.get(index) ?? 0) + Math.min(weight, leaderWeight));
      }
    }
    let chosen: number | undefined;
    let chosenShare = 0;
    for (const [index, share] of [...shared].sort(([left], [right]) => left - right)) {
      const leader = groups[index]?.leader;
      if (leader === undefined || share < Math.min(query.weight, leader.weight) / 3) continue;
      if (share > chosenShare) [chosen, chosenShare] = [index, share];
    }
    const group = chosen === undefined ? undefined : groups[chosen];
    if (group) {
      group.members.push(query);
      continue;
    }
    groups.push({ leader: query, members: [query] });
    for (const term of query.salient.keys()) {
      const holding = groupsByTerm.get(term);
      if (holding) holding.push(groups.length - 1);
      else groupsByTerm.set(term, [groups.length - 1]);
    }
  }
  return groups;
}

/** By UTF-16 code units: the same order on every machine and locale. */
export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
