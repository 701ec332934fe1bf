import type { WeighedTerm } from "../answerability/answerability-signals.js";
import { bm25Idf, bm25K1 } from "./bm25.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { firstAtLeast } from "./first-at-least.js";
import { wholeSnapshotSegment } from "./lexical-segment.js";
import type { LexicalSegment, PostingsPiece } from "./lexical-segment.js";

const cjkCharacter = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * A query term some record holds: its postings, one piece per segment holding it
 * (`PostingsPiece`; one piece over the whole snapshot for a lexicon of one segment), and
 * `scaled`, its largest possible share of the lexical score.
 */
export interface MatchedTerm {
  term: WeighedTerm;
  pieces: PostingsPiece[];
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
 * score (`norm`: `lengthNorms`), always less than `scaled`. A lexicon of several segments
 * gives each term's postings segment by segment, as they lie (`Lexicon.pieces`), and its
 * document frequency over their live records.
 */
export function weighQueryTerms(snapshot: IndexSnapshot, queryTerms: readonly string[]): { terms: WeighedTerm[]; matched: MatchedTerm[] } {
  const { lexicon, count } = snapshot;
  const frequencies = new Map<string, number>();
  for (const term of queryTerms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  let maximum = 0;
  const found: Array<{ term: WeighedTerm; pieces: PostingsPiece[] }> = [];
  const terms: WeighedTerm[] = [];
  let whole: LexicalSegment | undefined;
  for (const [term, queryFrequency] of frequencies) {
    const index = lexicon.find(term);
    let pieces: PostingsPiece[] | undefined;
    let documentFrequency = 0;
    let holding: Pick<WeighedTerm, "slots" | "holds"> = {};
    if (index >= 0 && lexicon.pieces !== undefined) {
      pieces = lexicon.pieces(index);
      documentFrequency = lexicon.documentFrequency(index);
      const held = pieces;
      holding = { holds: (slot) => piecesHold(held, slot) };
    } else if (index >= 0) {
      whole ??= wholeSnapshotSegment(snapshot);
      const postings = lexicon.postings(index);
      pieces = [{ segment: whole, termIndex: index, postings, boundsKey: index }];
      documentFrequency = postings.slots.length;
      holding = { slots: postings.slots };
    }
    const idf = bm25Idf(count, documentFrequency);
    const weight = queryFrequency * idf;
    const weighed: WeighedTerm = { index, weight, idf, cjk: cjkCharacter.test(term), ...holding };
    terms.push(weighed);
    maximum += weight * (bm25K1 + 1);
    if (pieces !== undefined) found.push({ term: weighed, pieces });
  }
  if (maximum === 0) return { terms, matched: [] };
  return { terms, matched: found.map(({ term, pieces }) => ({ term, pieces, scaled: (term.weight * (bm25K1 + 1)) / maximum })) };
}

/** Whether the record in snapshot slot `slot` holds the term of `pieces`: a binary search of the piece of its segment. */
function piecesHold(pieces: readonly PostingsPiece[], slot: number): boolean {
  for (const { segment, postings } of pieces) {
    const own = segment.ownSlot(slot);
    if (own < 0) continue;
    const { slots } = postings;
    return slots[firstAtLeast(slots, 0, slots.length, own)] === own;
  }
  return false;
}
