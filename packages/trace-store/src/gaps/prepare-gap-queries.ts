import { queryHashPrefix } from "../record/hash-query.js";
import type { GapQuery } from "./gap-query.js";
import type { KnowledgeGapOptions } from "./knowledge-gap-options.js";
import type { KnowledgeGapRow } from "./knowledge-gap-row.js";

/** What a source becomes as a term of a hashed query: pages are all such a query shows of itself. */
const sourceTermPrefix = "source:";

/**
 * The distinct queries with their terms and weights. A query's text is analysed with the
 * knowledge base's analyzer; a hashed query (or every query under `queryStorage: "hash"`)
 * has only its stored hints and its pages' sources as terms.
 *
 * With the knowledge base's document frequencies (`n` documents, `f` holding the term), a term
 * weighs `ln(1 + (n + 1) / (f + 0.5))`: positive, larger the rarer the term (a smoothed inverse
 * document frequency, as BM25's), and a term that half or more of the documents hold (weight
 * ln 3 or under) is too common to link queries. Without them (another store, or a hashed query,
 * whose terms the base cannot be asked about), every term weighs 1: the period's queries
 * cannot tell a common word from a topic asked often (a topic's word is common among its own
 * questions), so only the analyzer's stop words are left out.
 */
export function prepareGapQueries(
  rows: readonly KnowledgeGapRow[],
  options: Pick<KnowledgeGapOptions, "analyze" | "documentFrequencies" | "queryStorage">,
): GapQuery[] {
  const queries = rows.map((row) => {
    const hashed = options.queryStorage === "hash" || row.query.startsWith(queryHashPrefix);
    return { row, hashed, terms: hashed ? storedTerms(row) : analysedTerms(row.query, options.analyze) };
  });
  const base = options.documentFrequencies;
  return queries.map((query) => {
    const salient = new Map<string, number>();
    for (const term of query.terms.keys()) {
      const fromBase = base !== undefined && !query.hashed;
      const weight = fromBase ? smoothedInverseFrequency(base.documentCount, base.frequency(term)) : 1;
      if (fromBase && weight <= Math.log(3)) continue;
      salient.set(term, weight);
    }
    let weight = 0;
    for (const value of salient.values()) weight += value;
    return { ...query, salient, weight };
  });
}

function smoothedInverseFrequency(total: number, holding: number): number {
  const safeHolding = Number.isFinite(holding) && holding > 0 ? holding : 0;
  return Math.log(1 + (total + 1) / (safeHolding + 0.5));
}

function analysedTerms(text: string, analyze: KnowledgeGapOptions["analyze"]): Map<string, string> {
  const terms = new Map<string, string>();
  for (const analysed of analyze(text)) {
    const [term, shown] = typeof analysed === "string" ? [analysed, analysed] : [analysed.term, analysed.shown];
    if (term !== "" && !terms.has(term)) terms.set(term, shown);
  }
  return terms;
}

function storedTerms(row: KnowledgeGapRow): Map<string, string> {
  const terms = new Map<string, string>();
  // A record kept as text (before `hash` was set) kept the words its query matched as text too: only its pages may show.
  const keptAsText = !row.query.startsWith(queryHashPrefix);
  for (const term of keptAsText ? [] : row.hintTerms) if (term !== "") terms.set(term, term);
  for (const page of row.pages) terms.set(`${sourceTermPrefix}${page.source}`, `${sourceTermPrefix}${page.source}`);
  return terms;
}
