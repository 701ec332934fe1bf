import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import type { PostingCursor } from "./posting-cursor.js";
import { scanWindow, windowSlots } from "./scan-lexical-window.js";
import type { WindowScan } from "./scan-lexical-window.js";
import { termScoreBounds } from "./term-score-bounds.js";
import { TopSlots } from "./top-slots.js";
import type { MatchedTerm } from "./weigh-query-terms.js";
import { lengthNorms } from "./weigh-query-terms.js";

/**
 * The best `limit` slots by lexical score alone, with no filter: the same slots, scores and
 * order as scoring every posting (`lexicalScores`), found while skipping most postings of
 * common terms. This is MaxScore (Turtle and Flood 1995) run over windows of slots, as
 * Lucene's MaxScoreBulkScorer does, with block bounds in the spirit of Ding and Suel
 * (2011): each window (`scanWindow`) splits the terms anew by their bounds there
 * (`termScoreBounds`), so a term rare in one stretch of the index and common in another is
 * skipped where it cannot matter.
 */
export function lexicalTopSlots(snapshot: IndexSnapshot, matched: readonly MatchedTerm[], limit: number): TopSlots {
  const heap = new TopSlots(limit, snapshot.keys);
  if (matched.length === 0) return heap;
  const norms = lengthNorms(snapshot);
  const inOrder: PostingCursor[] = matched.map(({ term, postings, scaled }) => ({
    slots: postings.slots,
    frequencies: postings.frequencies,
    scaled,
    at: 0,
    bounds: termScoreBounds(snapshot, term.index, postings, norms),
    block: 0,
    windowBound: 0,
    perPosting: 0,
    essential: true,
  }));
  const scan: WindowScan = {
    heap,
    norms,
    inOrder,
    byBound: [...inOrder],
    others: [],
    essentialSums: new Float64Array(windowSlots),
    reached: new Int32Array(windowSlots / 32),
    candidates: new Uint32Array(windowSlots),
    bests: new Float64Array(windowSlots),
    windowStarts: new Uint32Array(inOrder.length),
    threshold: 0,
  };
  const windows = Math.ceil(snapshot.count / windowSlots);
  for (let window = 0; window < windows; window += 1) scanWindow(scan, window);
  return heap;
}
