import { bm25Idf } from "../lexical/bm25.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { firstAtLeast } from "../lexical/first-at-least.js";

/** One distinct query term as the lexical search weighed it. */
export interface WeighedTerm {
  /** Its position in the snapshot's sorted terms, or -1 when no record holds it. */
  index: number;
  /** qtf * idf: its share of the query's best reachable lexical score. */
  weight: number;
  idf: number;
  cjk: boolean;
  /** The slots holding it, ascending (its postings), when some record holds it. */
  slots?: Uint32Array;
  /** Whether the record in a slot holds it, when its postings lie in several segments (then `slots` is absent). */
  holds?: (slot: number) => boolean;
}

/** A hit of the ranked list: its slot and its three scores. */
export interface SignalHit {
  slot: number;
  /** The fused score the list is ordered by. */
  fused: number;
  lexical: number;
  dense: number;
}

/**
 * What the answerability model reads about a query's ranked hits, each named as it
 * appears in the trace:
 * - `lexical`, `dense`: the best hit's lexical share (its BM25 over the query's best
 *   reachable BM25) and dense score, 0..1;
 * - `coverage`: the idf-weighted share of the query's distinct terms the best hit holds,
 *   terms no record holds counting against it; `coverage5`: the same for the best five hits together;
 * - `unseen`: the idf-weighted share of the query's terms that no record holds;
 * - `missingRare`: the idf of the rarest query term the best hit lacks, over the largest
 *   idf the index has (1: a term no record holds is missing; 0: nothing is missing);
 * - `lexicalAgreement`, `denseAgreement`: the best hit's lexical and dense score over the
 *   best such score of any record the search looked at (a filtered search included the
 *   records its filter refuses): 1 when the fused ranking and that path agree;
 * - `matchedRarity`: the mean idf of the query terms the best hit holds, over the largest
 *   idf (high when it matches on the query's specific words, low when only on common ones);
 * - `rarity`: the mean idf of all the query's terms over the largest idf (a term no record holds counts 1);
 * - `margin`: how far the fifth hit falls below the first, as a share of the first;
 * - `cjk`: the share of the query's terms in CJK scripts;
 * - `terms`: ln(1 + distinct query terms): how long the question is, traced but not fitted by
 *   default (`fittedSignalNames`);
 * - `matchedTerms`: ln(1 + distinct query terms x `coverage`): the query's terms the best hit
 *   holds, each counted by its weight over the query's mean term weight, so a rare word counts
 *   for more than one and a common word for less: how much of a question the best hit answers for.
 */
export type AnswerabilitySignals = Record<AnswerabilitySignalName, number>;

export const answerabilitySignalNames = [
  "lexical",
  "dense",
  "coverage",
  "coverage5",
  "unseen",
  "missingRare",
  "lexicalAgreement",
  "denseAgreement",
  "matchedRarity",
  "rarity",
  "margin",
  "cjk",
  "terms",
  "matchedTerms",
] as const;
export type AnswerabilitySignalName = (typeof answerabilitySignalNames)[number];

/**
 * The signals a fit weighs unless told otherwise: every one but `terms`. Question length
 * tells how a question set was written, not how well the base answers it: hand-written
 * near misses are shorter than answerable questions in every set we have, while questions
 * of another collection are often longer, so a weight on length learned from one kind of
 * negative is wrong for the other. `matchedTerms` keeps what length legitimately says (a
 * hit that holds many of the question's words), without rewarding length itself.
 */
export const fittedSignalNames: readonly AnswerabilitySignalName[] = Object.freeze(
  answerabilitySignalNames.filter((name) => name !== "terms"),
);

/** The hits that `coverage5` and `margin` look at; the search keeps at least this many to compute them. */
export const signalHits = 5;
const spread = signalHits;

/**
 * The signals of a ranked list (best first, at least one hit). `bestLexical` and
 * `bestDense` are the best scores any record reached on each path (0 when a path did not
 * take part).
 */
export function answerabilitySignals(
  snapshot: IndexSnapshot,
  input: { terms: readonly WeighedTerm[]; hits: readonly SignalHit[]; bestLexical: number; bestDense: number },
): AnswerabilitySignals {
  const { terms, hits, bestLexical, bestDense } = input;
  const top = hits[0] as SignalHit;
  let total = 0;
  let unseen = 0;
  let cjk = 0;
  for (const term of terms) {
    total += term.weight;
    if (term.index < 0) unseen += term.weight;
    if (term.cjk) cjk += 1;
  }
  const largestIdf = bm25Idf(snapshot.count, 0);
  let covered = 0;
  let coveredByFive = 0;
  let missingRare = 0;
  let matchedIdf = 0;
  let matchedCount = 0;
  let allIdf = 0;
  const five = hits.slice(0, spread);
  for (const term of terms) {
    const inTop = term.index >= 0 && holds(snapshot, term, top.slot);
    allIdf += largestIdf > 0 ? term.idf / largestIdf : 1;
    if (inTop) {
      covered += term.weight;
      matchedIdf += largestIdf > 0 ? term.idf / largestIdf : 1;
      matchedCount += 1;
    } else missingRare = Math.max(missingRare, largestIdf > 0 ? term.idf / largestIdf : 1);
    if (inTop || (term.index >= 0 && five.some((hit) => hit !== top && holds(snapshot, term, hit.slot)))) {
      coveredByFive += term.weight;
    }
  }
  const fifth = hits.length >= spread ? (hits[spread - 1] as SignalHit).fused : 0;
  const coverage = total > 0 ? covered / total : 0;
  return {
    lexical: top.lexical,
    dense: top.dense,
    coverage,
    coverage5: total > 0 ? coveredByFive / total : 0,
    unseen: total > 0 ? unseen / total : 0,
    missingRare,
    lexicalAgreement: bestLexical > 0 ? top.lexical / bestLexical : 0,
    denseAgreement: bestDense > 0 ? top.dense / bestDense : 0,
    matchedRarity: matchedCount > 0 ? matchedIdf / matchedCount : 0,
    rarity: terms.length > 0 ? allIdf / terms.length : 0,
    margin: top.fused > 0 ? (top.fused - fifth) / top.fused : 0,
    cjk: terms.length > 0 ? cjk / terms.length : 0,
    terms: Math.log1p(terms.length),
    matchedTerms: Math.log1p(terms.length * coverage),
  };
}

/** Whether the record in `slot` holds the term: a binary search of the term's postings (slots ascend). */
function holds(snapshot: IndexSnapshot, term: WeighedTerm, slot: number): boolean {
  if (term.holds !== undefined) return term.holds(slot);
  const postingSlots = term.slots ?? snapshot.lexicon.postings(term.index).slots;
  return postingSlots[firstAtLeast(postingSlots, 0, postingSlots.length, slot)] === slot;
}
