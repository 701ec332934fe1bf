import type { WeighedTerm } from "../answerability/answerability-signals.js";
import { bm25B, bm25Idf, bm25K1 } from "./bm25.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import type { Postings } from "./lexicon.js";

const cjkCharacter = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** A query term some record holds: its postings and `scaled`, its largest possible share of the lexical score. */
export interface MatchedTerm {
  term: WeighedTerm;
  postings: Postings;
  scaled: number;
}

/**
 * The distinct terms of a query, weighed for the lexical score: a record's lexical score,
 * 0..1, is its BM25 divided by the largest BM25 the query could reach, the sum over query
 * terms of qtf * idf * (k1 + 1). Each term adds less than idf * (k1 + 1), so the score is the
 * idf-weighted share of the query that the record matches, discounted for low frequency and
 * long records. Query terms no record holds count in the maximum with the largest idf, so
 * questions about something the index does not cover score low even when they share
 * common words with it. A matched term adds `scaled * tf / (tf + norm)` to a record's
 * score (`norm`: `lengthNorms`), always less than `scaled`.
 */
export function weighQueryTerms(snapshot: IndexSnapshot, queryTerms: readonly string[]): { terms: WeighedTerm[]; matched: MatchedTerm[] } {
  const { lexicon, count } = snapshot;
  const frequencies = new Map<string, number>();
  for (const term of queryTerms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  let maximum = 0;
  const found: Array<{ term: WeighedTerm; postings: Postings }> = [];
  const terms: WeighedTerm[] = [];
  for (const [term, queryFrequency] of frequencies) {
    const index = lexicon.find(term);
    const postings = index < 0 ? undefined : lexicon.postings(index);
    const idf = bm25Idf(count, postings === undefined ? 0 : postings.slots.length);
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
    if (postings !== undefined) found.push({ term: weighed, postings });
  }
  if (maximum === 0) return { terms, matched: [] };
  return { terms, matched: found.map(({ term, postings }) => ({ term, postings, scaled: (term.weight * (bm25K1 + 1)) / maximum })) };
}

/** k1 * (1 - b + b * length / average length) per slot, computed on first use and kept with the snapshot. */
export function lengthNorms(snapshot: IndexSnapshot): Float32Array {
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
