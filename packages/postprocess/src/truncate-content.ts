const ellipsis = "…";
/** A cut at a sentence or word boundary may give up at most this share of the allotment. */
const boundarySlack = 0.25;

const whitespace = /\s/u;
const sentencePunctuation = new Set([".", "!", "?", ";", "\n"]);
const cjkSentencePunctuation = new Set(["。", "！", "？", "；"]);

/** Whether a cut before `index` ends a sentence: `.!?;` followed by white space or the end, a CJK full stop, or a line end. */
function endsSentence(content: string, index: number): boolean {
  const previous = content[index - 1] ?? "";
  if (cjkSentencePunctuation.has(previous)) return true;
  if (!sentencePunctuation.has(previous)) return false;
  const next = content[index];
  return next === undefined || whitespace.test(next);
}

/**
 * Cuts `content` to at most `limit` characters, the ellipsis included. It cuts after the
 * last sentence end, else at the last word boundary, found in the last quarter of the
 * room; else exactly at the limit (CJK text has no spaces). Never splits a surrogate pair.
 * `packContext` cuts a block to its allotment with it; the same call rebuilds a packed block
 * from its chunk (what a trace's `packed.allotment` is for).
 */
export function truncateContent(content: string, limit: number): string {
  let end = limit - ellipsis.length;
  if (end <= 0) return ellipsis.slice(0, Math.max(0, limit));
  const code = content.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff && end > 1) end -= 1;
  const floor = Math.max(1, Math.ceil(end * (1 - boundarySlack)));
  let wordCut = -1;
  for (let index = end; index >= floor; index -= 1) {
    if (endsSentence(content, index)) {
      wordCut = index;
      break;
    }
    const next = content[index];
    if (wordCut < 0 && next !== undefined && whitespace.test(next)) wordCut = index;
  }
  const head = wordCut > 0 ? content.slice(0, wordCut).trimEnd() : "";
  return (head === "" ? content.slice(0, end) : head) + ellipsis;
}
