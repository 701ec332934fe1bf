import { answerabilitySignals, signalHits, type AnswerabilitySignals, type WeighedTerm } from "../answerability/answerability-signals.js";
import { snapshotHasVectors } from "../snapshot/index-snapshot.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { fuseApproximateDenseScores } from "../dense/fuse-approximate-dense-scores.js";
import { freshFusedPass } from "../dense/fuse-dense-scores.js";
import { lexicalScores } from "../lexical/lexical-scores.js";
import type { LexicalScores } from "../lexical/lexical-scores.js";
import { lexicalTopSlots } from "../lexical/lexical-top-slots.js";
import { TopSlots } from "../lexical/top-slots.js";
import type { ScoredSlot } from "../lexical/top-slots.js";
import { weighQueryTerms } from "../lexical/weigh-query-terms.js";

export type { ScoredSlot } from "../lexical/top-slots.js";

/** What to look for in a snapshot. */
export interface SnapshotQuery {
  /** The query's terms (`tokenize`), repeats included. */
  terms: readonly string[];
  /** The query's embedding, when dense search takes part. */
  vector?: ArrayLike<number> | undefined;
  /** Weight of the dense score in the fused score, 0..1. */
  denseWeight: number;
  topK: number;
  /** The filter, as a test on a slot; absent when there is none. */
  accepts?: ((slot: number) => boolean) | undefined;
  /**
   * The caller's scope, as a test on a slot, when the filter also steers (`scopeFilter`):
   * the filtered list is compared with the best match inside it (`filterShare`). Every slot
   * the filter accepts must be inside it. Absent: no comparison.
   */
  inScope?: ((slot: number) => boolean) | undefined;
  /**
   * Approximate dense search (option `approximateDense`): only this many slots by estimated
   * cosine, and a tenth as many by lexical score, get an exact dense score and are ranked
   * (`fuseApproximateDenseScores`). Absent: every slot is scored exactly.
   */
  approximateCandidates?: number | undefined;
}

/** The best slots of a search, best first, and the answerability signals of that list (absent when it is empty). */
export interface SnapshotResult {
  slots: ScoredSlot[];
  signals?: AnswerabilitySignals;
  /**
   * Only when the query has a scope (`inScope`): the best hit's fused score over the best
   * fused score of any record inside the scope, the ones the filter refused included; 1
   * when the filter kept the scope's best record, below 1 when it left better matches of
   * the scope out. Records outside the scope never count.
   */
  filterShare?: number;
}

/**
 * The best `topK` slots of a snapshot by fused score `(1 - w) * lexical + w * dense`, best
 * first (ties by id); only slots with a positive score that the filter accepts. The filter
 * is only asked about slots that would enter the current top `topK`, so a broad filter
 * costs little; a narrow one is asked about many. With the list come the answerability
 * signals of its best hit (`answerabilitySignals`), which the port's model turns into the score.
 */
export function searchSnapshot(snapshot: IndexSnapshot, query: SnapshotQuery, denseFloor: number): SnapshotResult {
  if (Math.min(query.topK, snapshot.count) <= 0) return { slots: [] };
  // The signals look at the best five hits whatever topK is, so a hit's score does not
  // depend on how many hits were asked for.
  const limit = Math.min(Math.max(query.topK, signalHits), snapshot.count);
  snapshot.lexicon.beginSearch?.();
  const { terms, matched } = weighQueryTerms(snapshot, query.terms);
  const weight = query.vector !== undefined && snapshotHasVectors(snapshot) ? query.denseWeight : 0;
  if (!(weight > 0) && query.accepts === undefined && query.inScope === undefined) {
    // Lexical alone and unfiltered: the best record is the heap's first, and common terms' postings can be skipped.
    const ranked = lexicalTopSlots(snapshot, matched, limit).sorted();
    return ranked.length === 0 ? { slots: ranked } : withSignals(snapshot, query, ranked, terms, (ranked[0] as ScoredSlot).lexical, 0);
  }
  let lexical: LexicalScores | undefined;
  try {
    const lexicalPass = (scratch?: Float64Array): LexicalScores => {
      lexical ??= lexicalScores(snapshot, matched, scratch);
      return lexical;
    };
    return rankAll(snapshot, query, denseFloor, weight, lexicalPass, terms);
  } finally {
    (lexical as LexicalScores | undefined)?.release();
  }
}

/**
 * Ranks every slot the lexical pass touched (or, with the dense score, every slot), asking
 * the filter where it matters. `lexicalPass` runs the lexical pass (once): the exact dense
 * path runs it into the matrix's scratch while the helper thread starts on the dense scan.
 */
function rankAll(
  snapshot: IndexSnapshot,
  query: SnapshotQuery,
  denseFloor: number,
  weight: number,
  lexicalPass: (scratch?: Float64Array) => LexicalScores,
  terms: WeighedTerm[],
): SnapshotResult {
  const limit = Math.min(Math.max(query.topK, signalHits), snapshot.count);
  // An exact scan may read the vectors chunk by chunk (a snapshot's first: `streamedVectors`);
  // the approximate path needs them whole.
  const dense = weight > 0 && query.vector !== undefined;
  const streamed = dense && query.approximateCandidates === undefined ? snapshot.streamedVectors?.() : undefined;
  const vectors = dense ? (streamed ?? snapshot.vectors) : undefined;
  const heap = new TopSlots(limit, snapshot.keys);
  let bestLexical = 0;
  let bestDense = 0;
  let bestFused = 0;
  const inScope = query.inScope;
  /** Offers a slot with a positive fused score to the heap (and the scope's best). */
  const consider = (slot: number, score: number, lexicalScore: number, denseValue: number): void => {
    const enters = heap.wouldEnter(slot, score);
    const accepted = enters && (query.accepts === undefined || query.accepts(slot));
    if (accepted) heap.push(slot, score, lexicalScore, denseValue);
    // The scope is only asked about slots that would raise the best score (an accepted slot
    // is inside the scope: the filter includes the scope).
    if (inScope !== undefined && score > bestFused && (accepted || inScope(slot))) bestFused = score;
  };
  const offer = (slot: number, score: number, lexicalScore: number, denseValue: number): number => {
    consider(slot, score, lexicalScore, denseValue);
    return inScope === undefined ? heap.threshold() : Math.min(heap.threshold(), bestFused);
  };
  if (vectors !== undefined && query.vector !== undefined && query.approximateCandidates !== undefined) {
    const candidates = Math.max(query.approximateCandidates, limit);
    const fusion = { weight, denseFloor, best: freshFusedPass(), offer };
    fuseApproximateDenseScores(vectors, query.vector, lexicalPass(), { candidates, limit }, fusion);
    bestLexical = fusion.best.lexical;
    bestDense = fusion.best.dense;
  } else if (vectors !== undefined && query.vector !== undefined) {
    // Every slot, in tight passes over the kernel's dot products, chunk by chunk as the scan
    // (split with the helper thread on a large matrix) writes them; the lexical pass runs
    // while the helper scans. Only a slot that could enter the heap (or raise the scope's
    // best) goes on to `consider`.
    // The fused pass reads the lexical scores from the matrix's scratch and clears them.
    const fusion = { weight, denseFloor, best: freshFusedPass(), offer };
    let lexicalSide: LexicalScores | undefined;
    vectors.scanInChunks(
      query.vector,
      () => {
        lexicalSide = lexicalPass(vectors.lexicalScratch());
      },
      (start, end, dots, queryInverseNorm) => vectors.fuseRows(dots, start, end, queryInverseNorm, fusion),
    );
    (lexicalSide as LexicalScores | undefined)?.markCleared();
    bestLexical = fusion.best.lexical;
    bestDense = fusion.best.dense;
  } else {
    const { scores: lexical, touched, touchedCount } = lexicalPass();
    for (let index = 0; index < touchedCount; index += 1) {
      const slot = touched[index] as number;
      const lexicalScore = lexical[slot] as number;
      if (lexicalScore > bestLexical) bestLexical = lexicalScore;
      if (lexicalScore > 0) consider(slot, lexicalScore, lexicalScore, 0);
    }
  }
  const ranked = heap.sorted();
  if (ranked.length === 0) return { slots: ranked };
  const result = withSignals(snapshot, query, ranked, terms, bestLexical, bestDense);
  if (inScope === undefined) return result;
  const top = ranked[0] as ScoredSlot;
  return { ...result, filterShare: bestFused > 0 ? Math.min(1, top.score / bestFused) : 1 };
}

function withSignals(
  snapshot: IndexSnapshot,
  query: SnapshotQuery,
  ranked: ScoredSlot[],
  terms: WeighedTerm[],
  bestLexical: number,
  bestDense: number,
): SnapshotResult {
  const hits = ranked.map(({ slot, score, lexical, dense }) => ({ slot, fused: score, lexical, dense }));
  return {
    slots: ranked.slice(0, query.topK),
    signals: answerabilitySignals(snapshot, { terms, hits, bestLexical, bestDense }),
  };
}
