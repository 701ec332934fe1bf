import type { L0EntryMatch, L0Hints, L0MatchField } from "@lookup-knowledge/core";
import type { EntryTable } from "./entry-table.js";
import { matchFields, type TermIndex } from "./term-index.js";

/** Above this many entries asked for, a full sort beats keeping a sorted shortlist. */
const shortlistLimit = 64;

interface ListItem {
  term: string;
  order: number;
  slot: number;
  sequence: number;
}

/**
 * Turns the patterns a query contains into `L0Hints`. Entries are scored by how many terms
 * they matched, then by the total length of those terms, then by input order; only the best
 * `maxEntries` are returned in full, but the hint lists (titles, keywords, entities, domains)
 * cover every matched entry, so a domain never goes missing because its entries ranked low.
 *
 * The score arrays are allocated once per index and reset after each query.
 */
export class HintAssembler {
  private readonly matchCount: Int32Array;
  private readonly matchWeight: Float64Array;
  /** 1 for each entry a distinctive term matched during one query (its domain may be a hint). */
  private readonly sure: Uint8Array;
  /** Rank of each returned entry during one query, -1 for all others. */
  private readonly rankOf: Int32Array;
  /** Index into `domainNames` of each entry's domain, -1 without one. */
  private readonly entryDomain: Int32Array;
  private readonly domainNames: readonly string[];
  /** Best order of each domain during one query, Infinity when not seen. */
  private readonly domainOrder: Float64Array;

  constructor(
    private readonly entries: EntryTable,
    private readonly terms: TermIndex,
    private readonly maxEntries: number,
  ) {
    this.matchCount = new Int32Array(entries.count);
    this.matchWeight = new Float64Array(entries.count);
    this.sure = new Uint8Array(entries.count);
    this.rankOf = new Int32Array(entries.count).fill(-1);
    this.entryDomain = entries.entryDomain;
    this.domainNames = entries.domainNames;
    this.domainOrder = new Float64Array(this.domainNames.length).fill(Number.POSITIVE_INFINITY);
  }

  /**
   * The hints of the specific patterns a query matched. Every entry they matched is listed
   * with its terms, but only the entries a distinctive term matched give `domains`; the
   * domains of the others, and of the entries only generic patterns (held by too many
   * entries) matched, are `otherDomains`. So ordinary words ("Security", "Shell") and generic
   * ones never make a domain filter on their own (R7), and a query whose words span several
   * domains gets none from one distinctive term.
   */
  assemble(patterns: number[], generic: number[] = []): L0Hints {
    const touched: number[] = [];
    let ranked: number[] = [];
    try {
      this.score(patterns, touched);
      ranked = this.rank(touched);
      ranked.forEach((entry, rank) => {
        this.rankOf[entry] = rank;
      });
      const lists = this.termLists(patterns);
      const sureEntries = touched.filter((entry) => this.sure[entry] === 1);
      const domains = this.domains(sureEntries);
      const allSure = sureEntries.length === touched.length;
      const otherDomains =
        generic.length === 0 && allSure
          ? []
          : this.domains(this.withEntriesOf(generic, touched)).filter((domain) => !domains.includes(domain));
      return {
        titles: lists.title,
        keywords: lists.keyword,
        domains,
        ...(otherDomains.length > 0 ? { otherDomains } : {}),
        entities: lists.entity,
        entries: ranked.map((entry) => this.entryMatch(entry, patterns)),
      };
    } finally {
      for (const entry of touched) {
        this.matchCount[entry] = 0;
        this.matchWeight[entry] = 0;
        this.sure[entry] = 0;
      }
      for (const entry of ranked) this.rankOf[entry] = -1;
    }
  }

  /** Where an entry's terms go in the hint lists: its rank if returned, else after all of those, in input order. */
  private orderOf(entry: number): number {
    const rank = this.rankOf[entry] as number;
    return rank >= 0 ? rank : this.maxEntries + entry;
  }

  private score(patterns: number[], touched: number[]): void {
    const { postingStart, postingEntry, postingDistinctive, patternWeight } = this.terms;
    for (const pattern of patterns) {
      const weight = patternWeight[pattern] as number;
      const end = postingStart[pattern + 1] as number;
      for (let posting = postingStart[pattern] as number; posting < end; posting += 1) {
        const entry = postingEntry[posting] as number;
        const count = this.matchCount[entry] as number;
        if (count === 0) touched.push(entry);
        this.matchCount[entry] = count + 1;
        this.matchWeight[entry] = (this.matchWeight[entry] as number) + weight;
        if (postingDistinctive[posting] === 1) this.sure[entry] = 1;
      }
    }
  }

  /** More matches first, then longer matched terms, then input order. */
  private readonly compare = (left: number, right: number): number => {
    const byCount = (this.matchCount[right] as number) - (this.matchCount[left] as number);
    if (byCount !== 0) return byCount;
    const byWeight = (this.matchWeight[right] as number) - (this.matchWeight[left] as number);
    return byWeight !== 0 ? byWeight : left - right;
  };

  private rank(touched: number[]): number[] {
    const limit = this.maxEntries;
    if (touched.length <= limit || limit > shortlistLimit) {
      return touched.slice().sort(this.compare).slice(0, limit);
    }
    const best: number[] = [];
    for (const entry of touched) {
      if (best.length === limit) {
        if (this.compare(entry, best[limit - 1] as number) >= 0) continue;
        best[limit - 1] = entry;
      } else {
        best.push(entry);
      }
      for (let position = best.length - 1; position > 0; position -= 1) {
        const before = best[position - 1] as number;
        if (this.compare(entry, before) >= 0) break;
        best[position - 1] = entry;
        best[position] = before;
      }
    }
    return best;
  }

  /**
   * Distinct matched titles, keywords and entities. Spellings that normalise alike count
   * once. Order: terms of the returned entries in rank order, then the rest in input order.
   */
  private termLists(patterns: number[]): Record<"title" | "keyword" | "entity", string[]> {
    const { postingStart, postingEntry, postingField, postingSlot, postingTermKey } = this.terms;
    const byField = matchFields.map(() => new Map<number, ListItem>());
    let sequence = 0;
    for (const pattern of patterns) {
      const end = postingStart[pattern + 1] as number;
      for (let posting = postingStart[pattern] as number; posting < end; posting += 1) {
        const field = postingField[posting] as number;
        if (matchFields[field] === "domain") continue;
        const items = byField[field] as Map<number, ListItem>;
        const entry = postingEntry[posting] as number;
        const order = this.orderOf(entry);
        const slot = postingSlot[posting] as number;
        const key = postingTermKey[posting] as number;
        const known = items.get(key);
        if (known === undefined) {
          items.set(key, { term: this.terms.termOf(posting), order, slot, sequence });
          sequence += 1;
        } else if (order < known.order || (order === known.order && slot < known.slot)) {
          known.term = this.terms.termOf(posting);
          known.order = order;
          known.slot = slot;
        }
      }
    }
    const listOf = (field: L0MatchField): string[] => {
      const items = [...(byField[matchFields.indexOf(field)] as Map<number, ListItem>).values()];
      items.sort((left, right) => left.order - right.order || left.slot - right.slot || left.sequence - right.sequence);
      return items.map((item) => item.term);
    };
    return { title: listOf("title"), keyword: listOf("keyword"), entity: listOf("entity") };
  }

  /** `touched` and, after them, the other entries holding one of `patterns`, each once. */
  private withEntriesOf(patterns: number[], touched: number[]): number[] {
    const { postingStart, postingEntry } = this.terms;
    const seen = new Set(touched);
    const entries = [...touched];
    for (const pattern of patterns) {
      const end = postingStart[pattern + 1] as number;
      for (let posting = postingStart[pattern] as number; posting < end; posting += 1) {
        const entry = postingEntry[posting] as number;
        if (!seen.has(entry)) {
          seen.add(entry);
          entries.push(entry);
        }
      }
    }
    return entries;
  }

  /** Distinct non-blank domains of the given entries, exact values (they become filters, R7). */
  private domains(touched: number[]): string[] {
    const seen: number[] = [];
    for (const entry of touched) {
      const domain = this.entryDomain[entry] as number;
      if (domain < 0) continue;
      const order = this.orderOf(entry);
      const known = this.domainOrder[domain] as number;
      if (order >= known) continue;
      if (known === Number.POSITIVE_INFINITY) seen.push(domain);
      this.domainOrder[domain] = order;
    }
    seen.sort((left, right) => (this.domainOrder[left] as number) - (this.domainOrder[right] as number));
    const names = seen.map((domain) => this.domainNames[domain] as string);
    for (const domain of seen) this.domainOrder[domain] = Number.POSITIVE_INFINITY;
    return names;
  }

  private entryMatch(entryIndex: number, patterns: number[]): L0EntryMatch {
    const { postingStart, postingEntry, postingField, postingSlot } = this.terms;
    const found: Array<{ field: number; slot: number; term: string }> = [];
    for (const pattern of patterns) {
      const end = postingStart[pattern + 1] as number;
      let posting = lowerBound(postingEntry, postingStart[pattern] as number, end, entryIndex);
      for (; posting < end && postingEntry[posting] === entryIndex; posting += 1) {
        found.push({
          field: postingField[posting] as number,
          slot: postingSlot[posting] as number,
          term: this.terms.termOf(posting),
        });
      }
    }
    found.sort((left, right) => left.field - right.field || left.slot - right.slot);
    const entry = this.entries.at(entryIndex);
    return {
      id: entry.id,
      source: entry.source,
      ...(entry.title === undefined ? {} : { title: entry.title }),
      ...(entry.domain === undefined ? {} : { domain: entry.domain }),
      ...(entry.entities.length === 0 ? {} : { entities: [...entry.entities] }),
      matches: found.map((match) => ({ field: matchFields[match.field] as L0MatchField, term: match.term })),
    };
  }
}

/** First position in `values[start, end)` (sorted ascending) holding a value >= `target`. */
function lowerBound(values: Int32Array, start: number, end: number, target: number): number {
  let low = start;
  let high = end;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((values[middle] as number) < target) low = middle + 1;
    else high = middle;
  }
  return low;
}
