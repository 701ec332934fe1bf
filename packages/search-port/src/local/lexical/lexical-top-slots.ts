import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import type { LexicalSegment } from "./lexical-segment.js";
import type { PostingCursor } from "./posting-cursor.js";
import { scanWindow, windowSlots } from "./scan-lexical-window.js";
import type { WindowScan } from "./scan-lexical-window.js";
import { pieceScoreBounds } from "./term-score-bounds.js";
import { TopSlots } from "./top-slots.js";
import type { MatchedTerm } from "./weigh-query-terms.js";

/**
 * The best `limit` slots by lexical score alone, with no filter: the same slots, scores and
 * order as scoring every posting (`lexicalScores`), found while skipping most postings of
 * common terms. This is MaxScore (Turtle and Flood 1995) run over windows of slots, as
 * Lucene's MaxScoreBulkScorer does, with block bounds in the spirit of Ding and Suel
 * (2011): each window (`scanWindow`) splits the terms anew by their bounds there
 * (`pieceScoreBounds`), so a term rare in one stretch of the index and common in another is
 * skipped where it cannot matter. A snapshot of several segments is searched segment by
 * segment, each over its own postings and slots (`PostingsPiece`), into one heap whose
 * threshold carries over: a record's score is the same sum wherever its postings lie. The
 * largest segments go first, so that the threshold the smaller ones are searched with is
 * already high (the heap orders by score, then id: the order of the segments does not change
 * what it keeps).
 */
export function lexicalTopSlots(snapshot: IndexSnapshot, matched: readonly MatchedTerm[], limit: number): TopSlots {
  const heap = new TopSlots(limit, snapshot.keys);
  if (matched.length === 0) return heap;
  const scan: WindowScan = {
    heap,
    norms: new Float32Array(0),
    inOrder: [],
    byBound: [],
    others: [],
    essentialSums: new Float64Array(windowSlots),
    reached: new Int32Array(windowSlots / 32),
    candidates: new Uint32Array(windowSlots),
    bests: new Float64Array(windowSlots),
    windowStarts: new Uint32Array(matched.length),
    threshold: 0,
    base: 0,
    composed: undefined,
  };
  for (const { segment, cursors } of bySegment(snapshot, matched)) {
    scan.norms = segment.norms();
    scan.inOrder = cursors;
    scan.byBound = [...cursors];
    scan.base = segment.base;
    scan.composed = segment.composed;
    const windows = Math.ceil(segment.count / windowSlots);
    for (let window = 0; window < windows; window += 1) scanWindow(scan, window);
  }
  return heap;
}

/** The matched terms' cursors per segment, the largest segments first (then in slot order), each segment's terms in query order. */
function bySegment(snapshot: IndexSnapshot, matched: readonly MatchedTerm[]): Array<{ segment: LexicalSegment; cursors: PostingCursor[] }> {
  const segments = new Map<number, { segment: LexicalSegment; cursors: PostingCursor[] }>();
  for (const { pieces, scaled } of matched) {
    for (const piece of pieces) {
      const { segment, postings } = piece;
      let entry = segments.get(segment.position);
      if (entry === undefined) {
        entry = { segment, cursors: [] };
        segments.set(segment.position, entry);
      }
      entry.cursors.push({
        slots: postings.slots,
        frequencies: postings.frequencies,
        scaled,
        at: 0,
        bounds: pieceScoreBounds(snapshot, piece),
        block: 0,
        windowBound: 0,
        perPosting: 0,
        essential: true,
      });
    }
  }
  return [...segments.values()].sort(
    (left, right) => right.segment.count - left.segment.count || left.segment.position - right.segment.position,
  );
}
