/**
 * The lines of a UTF-8 text (each ended by "\n", the last one optionally), found by binary
 * search over its bytes without decoding them: `indexOf` gives a line's number. Built only
 * when the lines are non-empty and strictly increasing in byte order (which, for UTF-8, is
 * code point order); `readSortedLines` returns `undefined` otherwise, or when there are not
 * `expected` lines, so a caller can fall back to reading the lines whole.
 */
export interface SortedLines {
  /** The line number of `text`, or -1 when no line is `text`. */
  indexOf(text: string): number;
}

const newline = 0x0a;

export function readSortedLines(bytes: Uint8Array, expected: number): SortedLines | undefined {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === newline ? bytes.length - 1 : bytes.length;
  if (end === 0) return undefined;
  // starts[i] is where line i begins; starts[count] is one past the end of the last line.
  const starts = new Uint32Array(expected + 1);
  let count = 0;
  let previousStart = -1;
  let lineStart = 0;
  // One pass in JavaScript: a native call per line (indexOf, compare) cost more than the bytes.
  for (let at = 0; at <= end; at += 1) {
    if (at < end && bytes[at] !== newline) continue;
    if (at === lineStart || count === expected) return undefined; // an empty line, or too many
    if (previousStart >= 0 && compareRanges(bytes, previousStart, lineStart - 1, bytes, lineStart, at) >= 0) return undefined;
    starts[count] = lineStart;
    count += 1;
    previousStart = lineStart;
    lineStart = at + 1;
  }
  if (count !== expected) return undefined;
  starts[count] = end + 1;
  return {
    indexOf(text: string): number {
      if (text === "") return -1;
      const key = Buffer.from(text, "utf8");
      let low = 0;
      let high = count - 1;
      while (low <= high) {
        const middle = (low + high) >>> 1;
        const order = compareRanges(bytes, starts[middle] as number, (starts[middle + 1] as number) - 1, key, 0, key.length);
        if (order === 0) return middle;
        if (order < 0) low = middle + 1;
        else high = middle - 1;
      }
      return -1;
    },
  };
}

/** The order of left[leftStart, leftEnd) against right[rightStart, rightEnd) by bytes: negative, 0 or positive. */
function compareRanges(
  left: Uint8Array,
  leftStart: number,
  leftEnd: number,
  right: Uint8Array,
  rightStart: number,
  rightEnd: number,
): number {
  const length = Math.min(leftEnd - leftStart, rightEnd - rightStart);
  for (let offset = 0; offset < length; offset += 1) {
    const difference = (left[leftStart + offset] as number) - (right[rightStart + offset] as number);
    if (difference !== 0) return difference;
  }
  return leftEnd - leftStart - (rightEnd - rightStart);
}
