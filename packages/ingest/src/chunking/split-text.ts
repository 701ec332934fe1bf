/** Sentence ends: ASCII punctuation followed by whitespace, or CJK punctuation anywhere. */
const sentenceEnd = /[.!?;:](?=\s)|[。！？；…]+[”’」』）)]?/g;
const whitespace = /\s+/g;

/**
 * Cuts prose into pieces of at most `budget` characters, preferring (in this order) a
 * line break, a sentence end, a space; a text without any (CJK without punctuation) is
 * cut at the budget, never inside a surrogate pair. A cut is only taken if it keeps at
 * least a third of the budget in the piece. Pieces are trimmed; none is empty.
 */
export function splitText(text: string, budget: number): string[] {
  const pieces: string[] = [];
  let rest = text.trim();
  const minimum = Math.floor(budget / 3);
  while (rest.length > budget) {
    const window = rest.slice(0, budget + 1);
    let cut = window.lastIndexOf("\n", budget);
    if (cut < minimum) cut = lastMatchEnd(window, sentenceEnd, minimum, budget);
    if (cut < minimum) cut = lastMatchStart(window, whitespace, minimum, budget);
    if (cut < minimum) cut = safeCut(rest, budget);
    const piece = rest.slice(0, cut).trim();
    if (piece !== "") pieces.push(piece);
    rest = rest.slice(cut).trim();
  }
  if (rest !== "") pieces.push(rest);
  return pieces;
}

/**
 * The tail of `text` used to overlap the next chunk: at most `limit` characters, starting
 * at a sentence start if one is in reach, else at a word start, else (CJK) at a character.
 * The whole text when it is short enough; `""` when `limit` is 0.
 */
export function overlapTail(text: string, limit: number): string {
  if (limit <= 0) return "";
  if (text.length <= limit) return text.trim();
  const from = text.length - limit;
  const window = text.slice(from);
  sentenceEnd.lastIndex = 0;
  const firstEnd = sentenceEnd.exec(window);
  if (firstEnd !== null) {
    const tail = window.slice(firstEnd.index + firstEnd[0].length).trim();
    if (tail.length >= limit / 3) return tail;
  }
  if (/\s/.test(text[from - 1] ?? "")) return window.trim();
  const space = window.search(/\s/);
  if (space !== -1 && window.slice(space).trim() !== "") return window.slice(space).trim();
  return text.slice(safeCut(text, from)).trim();
}

/** End offset of the last match that ends within `[minimum, maximum]`, or -1. */
function lastMatchEnd(text: string, pattern: RegExp, minimum: number, maximum: number): number {
  let best = -1;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const end = match.index + match[0].length;
    if (end > maximum) break;
    if (end >= minimum) best = end;
  }
  return best;
}

/** Start offset of the last match that starts within `[minimum, maximum]`, or -1. */
function lastMatchStart(text: string, pattern: RegExp, minimum: number, maximum: number): number {
  let best = -1;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match.index > maximum) break;
    if (match.index >= minimum) best = match.index;
  }
  return best;
}

/** `offset`, moved back by one when it would split a surrogate pair. */
function safeCut(text: string, offset: number): number {
  const code = text.charCodeAt(offset - 1);
  return code >= 0xd800 && code <= 0xdbff ? offset - 1 : offset;
}
