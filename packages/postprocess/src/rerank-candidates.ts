import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { Candidate, HitReason, HitSignal, L0Hints, RerankBoost } from "@lookup-knowledge/core";
import { demoteRepeatedDocuments } from "./demote-repeated-documents.js";
import { mergeHitReasons } from "./internal/hit-reasons.js";
import { roundTo } from "./internal/numbers.js";
import { containsTerm, foldText, normalizeText, prepareTerms, queryTerms } from "@lookup-knowledge/text";
import type { SearchTerm } from "@lookup-knowledge/text";
import type { PostprocessErrorCode } from "./postprocess-error-code.js";

/** The amount each rule signal adds per match, and the most one signal can add in total, as shares of the list's best base score. */
export interface RerankWeights {
  /** The candidate's title equals an L0 hint title. */
  title: number;
  /** An L0 hint keyword occurs in the title, breadcrumb or content (per keyword). */
  keyword: number;
  /** An L0 entity term occurs in the content or title (per entity). */
  entity: number;
  /** The candidate's category equals an L0 domain. */
  domain: number;
  /** A query term occurs in the breadcrumb headings (per term). */
  heading: number;
  /** A query term occurs in the title (per term). */
  queryTerm: number;
  /** Cap on the sum of the boosts of one signal. */
  maxPerSignal: number;
  /**
   * Cap on all the boosts of one candidate together, as a share of its base score: boosts
   * may reorder near ties, but a candidate whose base score is more than `1 + maxBoostShare`
   * times another's stays ahead of it (unless it is a further block of its document, which
   * `repeatedDocument` then demotes). Over the cap, every boost is scaled down alike.
   */
  maxBoostShare: number;
  /**
   * The share of its rank score a document's second block gives up (its third gives up that
   * share twice, and so on), 0..1: a further block of one document that is only about as good
   * as another document's best block falls behind it, so the returned width holds more
   * documents (`demoteRepeatedDocuments`). 0 ranks every block by its own score alone.
   * The default, 0.25, is the share with the best mean nDCG@10 of the whole retriever over the
   * development halves of the eval's Markdown sets (`pnpm --filter @lookup-knowledge/eval run
   * repeated-document`); every share from 0.1 to 1 measures the same on their test halves.
   */
  repeatedDocument: number;
}

export const defaultRerankWeights: Readonly<RerankWeights> = Object.freeze({
  title: 0.08,
  keyword: 0.03,
  entity: 0.03,
  domain: 0.05,
  heading: 0.02,
  queryTerm: 0.02,
  maxPerSignal: 0.09,
  maxBoostShare: 0.2,
  repeatedDocument: 0.25,
});

/** A candidate with the score its rank was decided by, and how that score came about. */
export interface RankedCandidate extends Candidate {
  /** `baseScore` plus the boosts; the order is by this, descending. */
  rankScore: number;
  /** The port's score, or `0.5 / (portRank + 1)` when the port gave none. */
  baseScore: number;
  boosts: RerankBoost[];
}

const weightNames = Object.keys(defaultRerankWeights) as Array<keyof RerankWeights>;

/**
 * The complete weights: the defaults with the given ones over them. A weight that is not a
 * finite number of at least 0 (for `repeatedDocument`, from 0 to 1) is refused with an error naming it.
 */
export function resolveRerankWeights(weights: Partial<RerankWeights> | undefined): RerankWeights {
  const resolved: RerankWeights = { ...defaultRerankWeights };
  for (const name of weightNames) {
    const value = weights?.[name];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new LookupKnowledgeError<PostprocessErrorCode>({
        code: "invalid_argument",
        message: `rerank weight ${name} must be a finite number of at least 0, got ${String(value)}`,
      });
    }
    if (name === "repeatedDocument" && value > 1) {
      throw new LookupKnowledgeError<PostprocessErrorCode>({
        code: "invalid_argument",
        message: `rerank weight repeatedDocument is a share of a block's score, from 0 to 1, got ${String(value)}`,
      });
    }
    resolved[name] = value;
  }
  return resolved;
}

/** Everything about the hints and the query, prepared once per call. */
interface PreparedSignals {
  titles: Map<string, string>;
  keywords: SearchTerm[];
  entities: SearchTerm[];
  domains: Set<string>;
  queryTerms: SearchTerm[];
}

function prepareSignals(query: string, hints: L0Hints): PreparedSignals {
  const titles = new Map<string, string>();
  for (const title of hints.titles) {
    if (typeof title !== "string") continue;
    const normalized = foldText(title);
    if (normalized !== "" && !titles.has(normalized)) titles.set(normalized, title.trim());
  }
  const domains = new Set<string>();
  for (const domain of hints.domains) {
    if (typeof domain !== "string") continue;
    const normalized = foldText(domain);
    if (normalized !== "") domains.add(normalized);
  }
  return {
    titles,
    keywords: prepareTerms(hints.keywords),
    entities: prepareTerms(hints.entities),
    domains,
    queryTerms: queryTerms(query),
  };
}

/** Adds boosts of one signal until its cap is reached; matches past the cap add nothing. */
class BoostCollector {
  readonly boosts: RerankBoost[] = [];
  readonly reasons: HitReason[] = [];
  private readonly totals = new Map<HitSignal, number>();

  constructor(private readonly cap: number) {}

  /** `term` is the word, title or category matched, as written (for the model's plain-language line). */
  add(signal: HitSignal, weight: number, reason: string, term: string): void {
    const total = this.totals.get(signal) ?? 0;
    const amount = roundTo(Math.min(weight, this.cap - total), 6);
    if (amount <= 0) return;
    this.totals.set(signal, roundTo(total + amount, 6));
    this.boosts.push({ signal, reason, amount });
    this.reasons.push({ signal, detail: reason, term });
  }

  /** Whether another boost of this signal can still add anything. */
  open(signal: HitSignal, weight: number): boolean {
    return weight > 0 && roundTo(this.cap - (this.totals.get(signal) ?? 0), 6) > 0;
  }
}

function boostsOf(candidate: Candidate, signals: PreparedSignals, weights: RerankWeights): BoostCollector {
  const collector = new BoostCollector(weights.maxPerSignal);
  if (weights.maxPerSignal <= 0) return collector;
  const title = candidate.title === undefined ? "" : foldText(candidate.title);
  const breadcrumb = candidate.breadcrumb === undefined ? "" : foldText(candidate.breadcrumb);
  let content: string | undefined;
  const normalizedContent = (): string => (content ??= normalizeText(candidate.content));

  if (title !== "" && collector.open("title", weights.title)) {
    const hintTitle = signals.titles.get(title);
    if (hintTitle !== undefined) collector.add("title", weights.title, `title matches L0 hint "${hintTitle}"`, hintTitle);
  }
  for (const keyword of signals.keywords) {
    if (!collector.open("keyword", weights.keyword)) break;
    if (containsTerm(title, keyword) || containsTerm(breadcrumb, keyword) || containsTerm(normalizedContent(), keyword)) {
      collector.add("keyword", weights.keyword, `keyword "${keyword.display}" (L0 hint)`, keyword.display);
    }
  }
  for (const entity of signals.entities) {
    if (!collector.open("entity", weights.entity)) break;
    if (containsTerm(normalizedContent(), entity) || containsTerm(title, entity)) {
      collector.add("entity", weights.entity, `entity "${entity.display}" (L0 hint)`, entity.display);
    }
  }
  if (candidate.category !== undefined && collector.open("domain", weights.domain)) {
    if (signals.domains.has(foldText(candidate.category))) {
      collector.add("domain", weights.domain, `category "${candidate.category}" matches L0 domain`, candidate.category);
    }
  }
  if (breadcrumb !== "") {
    for (const term of signals.queryTerms) {
      if (!collector.open("heading", weights.heading)) break;
      if (containsTerm(breadcrumb, term)) collector.add("heading", weights.heading, `heading mentions "${term.display}"`, term.display);
    }
  }
  if (title !== "") {
    for (const term of signals.queryTerms) {
      if (!collector.open("query_term", weights.queryTerm)) break;
      if (containsTerm(title, term)) {
        collector.add("query_term", weights.queryTerm, `title mentions query term "${term.display}"`, term.display);
      }
    }
  }
  return collector;
}

/** Scales the boosts down alike so that together they add at most `cap`. */
function boundBoosts(boosts: RerankBoost[], cap: number): RerankBoost[] {
  const total = boosts.reduce((sum, boost) => sum + boost.amount, 0);
  if (total <= cap || total === 0) return boosts;
  const factor = cap / total;
  return boosts.map((boost) => ({ ...boost, amount: roundTo(boost.amount * factor, 6) }));
}

/**
 * Deterministic rule rerank (R18). Each candidate starts from its base score (the port's
 * score, or `0.5 / (portRank + 1)` when the port gave none, so unscored hits keep the
 * port's order) and gains named boosts: `title` (title equals an L0 hint title), `keyword`
 * (L0 keyword in title, breadcrumb or content), `entity` (L0 entity in content or title),
 * `domain` (category equals an L0 domain), `heading` (query term in the breadcrumb) and
 * `query_term` (query term in the title). Every amount is a share of the list's best base
 * score (a weight of 0.08 adds 0.08 x that score). Each signal adds at most `maxPerSignal`, and all
 * of a candidate's boosts together at most `maxBoostShare` of its base score. Every
 * boost is also recorded as a hit reason. Last, a document's further blocks give up
 * `repeatedDocument` of their rank score per block of theirs ranked above
 * (`demoteRepeatedDocuments`, recorded in the boosts only). Hints only boost and explain: no
 * candidate is created from them (R6). Same input, same order.
 */
export function rerankCandidates(
  candidates: Candidate[],
  context: { query: string; hints: L0Hints; weights?: Partial<RerankWeights> | undefined },
): RankedCandidate[] {
  const weights = resolveRerankWeights(context.weights);
  const signals = prepareSignals(context.query, context.hints);
  const baseScores = candidates.map((candidate) => candidate.score ?? roundTo(0.5 / (candidate.portRank + 1), 6));
  // Boosts are shares of the list's best base score, so they weigh the same whatever the
  // port's scale (a fused score near 0.4 or a similarity near 1).
  // The collector works in the weights' own units (caps and all); each amount is then taken
  // times that best score (to 12 decimals: float noise only), so a tiny scale never erases a boost.
  const unit = baseScores.reduce((best, score) => Math.max(best, score), 0);
  const ranked = candidates.map((candidate, index): RankedCandidate => {
    const baseScore = baseScores[index] as number;
    const { boosts: unitBoosts, reasons } = boostsOf(candidate, signals, weights);
    const inUnits = unit > 0 ? unitBoosts.map((boost) => ({ ...boost, amount: roundTo(boost.amount * unit, 12) })) : unitBoosts;
    const boosts = boundBoosts(inUnits, weights.maxBoostShare * baseScore);
    const boostTotal = boosts.reduce((sum, boost) => sum + boost.amount, 0);
    // Object.assign rather than a spread: spreading then adding keys is ~50x slower in V8.
    return Object.assign({}, candidate, {
      hitReasons: mergeHitReasons(candidate.hitReasons, reasons),
      rankScore: roundTo(baseScore + boostTotal, 6),
      baseScore,
      boosts,
    });
  });
  return demoteRepeatedDocuments(ranked, weights.repeatedDocument);
}
