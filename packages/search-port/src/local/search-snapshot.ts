import { bm25B, bm25Idf, bm25K1 } from "./bm25.js";
import type { IndexSnapshot } from "./index-snapshot.js";
import type { Postings } from "./lexicon.js";
import type { SnapshotKeys } from "./snapshot-keys.js";
import { answerabilitySignals, signalHits, type AnswerabilitySignals, type WeighedTerm } from "./answerability-signals.js";

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
}

const cjkCharacter = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export interface ScoredSlot {
  slot: number;
  /** The fused score, `(1 - w) * lexical + w * dense`. */
  score: number;
  lexical: number;
  dense: number;
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
 * The lexical score of every slot, 0..1: the record's BM25 divided by the largest BM25
 * the query could reach, the sum over query terms of qtf * idf * (k1 + 1). Each term adds
 * less than idf * (k1 + 1), so the score is the idf-weighted share of the query that the
 * record matches, discounted for low frequency and long records. Query terms no record
 * holds count in the maximum with the largest idf, so questions about something the index
 * does not cover score low even when they share common words with it.
 *
 * `scores` is the snapshot's scratch array, zero outside `touched`: the caller must call
 * `release` when done with it (and before another search of the snapshot starts).
 */
function lexicalScores(
  snapshot: IndexSnapshot,
  queryTerms: readonly string[],
): { scores: Float64Array; touched: Uint32Array; touchedCount: number; terms: WeighedTerm[]; release: () => void } {
  const count = snapshot.count;
  const { lexicon } = snapshot;
  const frequencies = new Map<string, number>();
  for (const term of queryTerms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  let maximum = 0;
  const matched: Array<{ term: WeighedTerm; postings: Postings }> = [];
  const terms: WeighedTerm[] = [];
  let postingCount = 0;
  for (const [term, queryFrequency] of frequencies) {
    const index = lexicon.find(term);
    const postings = index < 0 ? undefined : lexicon.postings(index);
    const documentFrequency = postings === undefined ? 0 : postings.slots.length;
    const idf = bm25Idf(count, documentFrequency);
    const weight = queryFrequency * idf;
    const weighed: WeighedTerm = {
      index,
      weight,
      idf,
      cjk: cjkCharacter.test(term),
      ...(postings === undefined ? {} : { slots: postings.slots }),
    };
    terms.push(weighed);
    maximum += weight * (bm25K1 + 1);
    if (postings !== undefined) {
      matched.push({ term: weighed, postings });
      postingCount += documentFrequency;
    }
  }
  const touched = new Uint32Array(Math.min(count, postingCount));
  let touchedCount = 0;
  snapshot.scratch ??= new Float64Array(count);
  const scores = snapshot.scratch;
  const release = () => {
    for (let index = 0; index < touchedCount; index += 1) scores[touched[index] as number] = 0;
  };
  if (maximum === 0 || matched.length === 0) return { scores, touched, touchedCount, terms, release };
  const norms = lengthNorms(snapshot);
  for (const { term, postings } of matched) {
    const scaled = (term.weight * (bm25K1 + 1)) / maximum;
    const { slots, frequencies: termFrequencies } = postings;
    const length = slots.length;
    for (let posting = 0; posting < length; posting += 1) {
      const slot = slots[posting] as number;
      const frequency = termFrequencies[posting] as number;
      const previous = scores[slot] as number;
      if (previous === 0) touched[touchedCount++] = slot;
      scores[slot] = previous + (scaled * frequency) / (frequency + (norms[slot] as number));
    }
  }
  return { scores, touched, touchedCount, terms, release };
}

function lengthNorms(snapshot: IndexSnapshot): Float32Array {
  if (snapshot.lengthNorms !== undefined) return snapshot.lengthNorms;
  const { totalLength } = snapshot.lexicon;
  const lengths = snapshot.lexicon.lengths();
  const average = snapshot.count === 0 ? 1 : Math.max(totalLength / snapshot.count, 1e-9);
  const norms = new Float32Array(snapshot.count);
  for (let slot = 0; slot < snapshot.count; slot += 1) {
    norms[slot] = bm25K1 * (1 - bm25B + (bm25B * (lengths[slot] as number)) / average);
  }
  snapshot.lengthNorms = norms;
  return norms;
}

/**
 * Maps a cosine to the dense score, 0..1: the cosine's excess over `denseFloor` (the
 * cosine that unrelated texts typically reach with the offline embedder), stretched to
 * 0..1 and clipped. See the README for how the floor was measured.
 */
export function denseScore(cosine: number, floor: number): number {
  if (!(cosine > floor)) return 0;
  return Math.min(1, (cosine - floor) / (1 - floor));
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
  const { scores: lexical, touched, touchedCount, terms, release } = lexicalScores(snapshot, query.terms);
  try {
    return rankSlots(snapshot, query, denseFloor, { lexical, touched, touchedCount, terms });
  } finally {
    release();
  }
}

function rankSlots(
  snapshot: IndexSnapshot,
  query: SnapshotQuery,
  denseFloor: number,
  scored: { lexical: Float64Array; touched: Uint32Array; touchedCount: number; terms: WeighedTerm[] },
): SnapshotResult {
  const { lexical, touched, touchedCount, terms } = scored;
  // The signals look at the best five hits whatever topK is, so a hit's score does not
  // depend on how many hits were asked for.
  const limit = Math.min(Math.max(query.topK, signalHits), snapshot.count);
  const weight = query.vector !== undefined && snapshot.vectors !== undefined ? query.denseWeight : 0;
  let dense: Float32Array | undefined;
  if (weight > 0 && snapshot.vectors !== undefined && query.vector !== undefined) {
    dense = new Float32Array(snapshot.count);
    snapshot.vectors.cosines(query.vector, dense);
  }
  const heap = new TopSlots(limit, snapshot.keys);
  let bestLexical = 0;
  let bestDense = 0;
  let bestFused = 0;
  const inScope = query.inScope;
  const consider = (slot: number): void => {
    const lexicalScore = lexical[slot] as number;
    const denseValue = dense === undefined ? 0 : denseScore(dense[slot] as number, denseFloor);
    if (lexicalScore > bestLexical) bestLexical = lexicalScore;
    if (denseValue > bestDense) bestDense = denseValue;
    const score = dense === undefined ? lexicalScore : (1 - weight) * lexicalScore + weight * denseValue;
    if (!(score > 0)) return;
    const enters = heap.wouldEnter(slot, score);
    const accepted = enters && (query.accepts === undefined || query.accepts(slot));
    if (accepted) heap.push(slot, score, lexicalScore, denseValue);
    // The scope is only asked about slots that would raise the best score (an accepted slot
    // is inside the scope: the filter includes the scope).
    if (inScope !== undefined && score > bestFused && (accepted || inScope(slot))) bestFused = score;
  };
  if (dense !== undefined) {
    for (let slot = 0; slot < snapshot.count; slot += 1) consider(slot);
  } else {
    for (let index = 0; index < touchedCount; index += 1) consider(touched[index] as number);
  }
  const ranked = heap.sorted();
  if (ranked.length === 0) return { slots: ranked };
  const hits = ranked.map(({ slot, score, lexical: lexicalScore, dense: denseValue }) => ({
    slot,
    fused: score,
    lexical: lexicalScore,
    dense: denseValue,
  }));
  const top = ranked[0] as ScoredSlot;
  return {
    slots: ranked.slice(0, query.topK),
    signals: answerabilitySignals(snapshot, { terms, hits, bestLexical, bestDense }),
    ...(inScope === undefined ? {} : { filterShare: bestFused > 0 ? Math.min(1, top.score / bestFused) : 1 }),
  };
}

/** A bounded min-heap keeping the best entries by (score desc, id asc). */
class TopSlots {
  private readonly entries: ScoredSlot[] = [];

  constructor(
    private readonly capacity: number,
    private readonly keys: SnapshotKeys,
  ) {}

  /** Whether an entry would be kept if it passed the filter. */
  wouldEnter(slot: number, score: number): boolean {
    if (this.entries.length < this.capacity) return true;
    const worst = this.entries[0] as ScoredSlot;
    return this.better(slot, score, worst.slot, worst.score);
  }

  push(slot: number, score: number, lexical: number, dense: number): void {
    const entry = { slot, score, lexical, dense };
    if (this.entries.length < this.capacity) {
      this.entries.push(entry);
      this.siftUp(this.entries.length - 1);
    } else {
      this.entries[0] = entry;
      this.siftDown(0);
    }
  }

  sorted(): ScoredSlot[] {
    return [...this.entries].sort((left, right) => (this.better(left.slot, left.score, right.slot, right.score) ? -1 : 1));
  }

  private better(slot: number, score: number, otherSlot: number, otherScore: number): boolean {
    if (score !== otherScore) return score > otherScore;
    return this.keys.id(slot) < this.keys.id(otherSlot);
  }

  /** `a` should sit above `b` in the heap: it is the worse of the two. */
  private above(a: ScoredSlot, b: ScoredSlot): boolean {
    return this.better(b.slot, b.score, a.slot, a.score);
  }

  private siftUp(index: number): void {
    const entries = this.entries;
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.above(entries[child] as ScoredSlot, entries[parent] as ScoredSlot)) break;
      [entries[child], entries[parent]] = [entries[parent] as ScoredSlot, entries[child] as ScoredSlot];
      child = parent;
    }
  }

  private siftDown(index: number): void {
    const entries = this.entries;
    let parent = index;
    for (;;) {
      const left = parent * 2 + 1;
      const right = left + 1;
      let top = parent;
      if (left < entries.length && this.above(entries[left] as ScoredSlot, entries[top] as ScoredSlot)) top = left;
      if (right < entries.length && this.above(entries[right] as ScoredSlot, entries[top] as ScoredSlot)) top = right;
      if (top === parent) return;
      [entries[parent], entries[top]] = [entries[top] as ScoredSlot, entries[parent] as ScoredSlot];
      parent = top;
    }
  }
}
