/**
 * The deepest nesting of block quotes and list items the Markdown parser is given. The
 * parser's cost per line grows with the number of open containers, so a list nested 3,000
 * levels deep costs quadratic time; bounding the depth keeps a parse near-linear in the size
 * of the file. Real documents stay far below it.
 */
export const maxNestingDepth = 32;

/** The most leading whitespace (in columns, a tab counting 4) a line keeps before its first container marker. */
export const maxIndentColumns = 2 * maxNestingDepth;

/**
 * Bounds the nesting a Markdown text can express, in one linear pass, so the parser never
 * sees more than about `maxNestingDepth` open containers:
 *
 * - On each line, the container markers of its prefix (`>`, `-`, `*`, `+`, `1.`, `1)` each
 *   followed by a space) past the first `maxNestingDepth` are removed with their spaces;
 *   the text after them stays.
 * - A whitespace run in the prefix longer than `maxIndentColumns` columns is cut to that
 *   many spaces (indentation is how list items nest).
 *
 * Lines inside a fenced code block that starts at the top level (not in a list or quote)
 * are left exactly as written. Lines that do not exceed the bounds are left as they are, so
 * a normal document comes back unchanged (the same string).
 */
export function boundNesting(text: string): string {
  let output: string[] | undefined;
  let copiedUpTo = 0;
  let fence: { marker: string; length: number } | undefined;
  let lineStart = 0;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    readPrefix(text, lineStart, lineEnd);
    const end = prefix.end;
    if (fence !== undefined) {
      if (prefix.markers === 0 && prefix.columns < 4 && closesFence(text, end, lineEnd, fence)) fence = undefined;
    } else {
      if (prefix.markers === 0 && prefix.columns < 4) fence = opensFence(text, end, lineEnd);
      if (prefix.markers > maxNestingDepth || prefix.widestRun > maxIndentColumns) {
        output ??= [];
        output.push(text.slice(copiedUpTo, lineStart), boundedPrefix(text, lineStart, end));
        copiedUpTo = end;
      }
    }
    lineStart = lineEnd + 1;
  }
  if (output === undefined) return text;
  output.push(text.slice(copiedUpTo));
  return output.join("");
}

interface Prefix {
  /** Where the prefix ends (the first character of the line's content). */
  end: number;
  /** How many container markers it has. */
  markers: number;
  /** Columns of leading whitespace before the first marker. */
  columns: number;
  /** Columns of the widest whitespace run in the prefix. */
  widestRun: number;
}

/**
 * The prefix of the line `readPrefix` read last: one object for every line of every text,
 * filled in place (a parse reads every line of every file: an object per line was a good part
 * of this pass's time).
 */
const prefix: Prefix = { end: 0, markers: 0, columns: 0, widestRun: 0 };

/** Reads the prefix of the line from `start` to `end` into `prefix`. */
function readPrefix(text: string, start: number, end: number): void {
  let position = start;
  let markers = 0;
  let columns = 0;
  let widestRun = 0;
  while (position < end) {
    let run = 0;
    for (; position < end; position += 1) {
      const code = text.charCodeAt(position);
      // A space or a carriage return counts one column, a tab four.
      if (code === 32 || code === 13) run += 1;
      else if (code === 9) run += 4;
      else break;
    }
    if (markers === 0) columns = run;
    if (run > widestRun) widestRun = run;
    const markerEnd = markerAt(text, position, end);
    if (markerEnd === -1) break;
    markers += 1;
    position = markerEnd;
  }
  prefix.end = position;
  prefix.markers = markers;
  prefix.columns = columns;
  prefix.widestRun = widestRun;
}

/** The end of the container marker at `position` (a `>`, or a list marker followed by whitespace or the line end), or -1. */
function markerAt(text: string, position: number, end: number): number {
  const code = text.charCodeAt(position);
  // >
  if (code === 62) return position + 1;
  let next = position;
  // - * +
  if (code === 45 || code === 42 || code === 43) next += 1;
  else {
    while (next < end && next - position < 9 && isDigit(text.charCodeAt(next))) next += 1;
    const after = text.charCodeAt(next);
    // . )
    if (next === position || (after !== 46 && after !== 41)) return -1;
    next += 1;
  }
  const after = text.charCodeAt(next);
  // a space or a tab
  if (next === end || after === 32 || after === 9) return next;
  return -1;
}

/** The prefix from `start` to `end` with markers past the depth bound removed and long whitespace runs cut. */
function boundedPrefix(text: string, start: number, end: number): string {
  const parts: string[] = [];
  let position = start;
  let markers = 0;
  while (position < end) {
    const runStart = position;
    let run = 0;
    while (position < end && (text[position] === " " || text[position] === "\t" || text[position] === "\r")) {
      run += text[position] === "\t" ? 4 : 1;
      position += 1;
    }
    const markerEnd = position < end ? markerAt(text, position, end) : -1;
    const keep = markers < maxNestingDepth || markerEnd === -1;
    if (keep) parts.push(run > maxIndentColumns ? " ".repeat(maxIndentColumns) : text.slice(runStart, position));
    if (markerEnd === -1) break;
    if (markers < maxNestingDepth) parts.push(text.slice(position, markerEnd));
    markers += 1;
    position = markerEnd;
  }
  return parts.join("");
}

function opensFence(text: string, start: number, end: number): { marker: string; length: number } | undefined {
  const marker = text[start];
  if (marker !== "`" && marker !== "~") return undefined;
  let length = 0;
  while (start + length < end && text[start + length] === marker) length += 1;
  if (length < 3) return undefined;
  if (marker === "`" && text.slice(start + length, end).includes("`")) return undefined;
  return { marker, length };
}

function closesFence(text: string, start: number, end: number, fence: { marker: string; length: number }): boolean {
  let length = 0;
  while (start + length < end && text[start + length] === fence.marker) length += 1;
  return length >= fence.length && text.slice(start + length, end).trim() === "";
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
