/** Where a run of dictionary lines starts and ends (byte offsets of line starts; `end` excluded). */
interface LineRange {
  start: number;
  end: number;
}

const newline = 10;
const space = 32;
/** jieba's bundled dictionary has no word longer than this many characters (a test checks it). */
const longestWord = 16;
/**
 * A word no text can hold: jieba matches words only inside runs of Han characters, ASCII
 * letters and digits and `+#&._%-` (its `RE_HAN_DEFAULT`), and U+E000 is none of those.
 */
const restWord = "\ue000";
/** At most this many prefixes' lines are kept (a few MB). */
const cachedPrefixes = 100_000;

/**
 * A jieba dictionary file (`word frequency tag` lines, sorted by the words' bytes), read as
 * bytes and searched in place, so the words a text needs are found without building the
 * whole dictionary (building it takes jieba 130-200 ms).
 *
 * `dictionaryFor(runs)` gives a small dictionary that segments those runs exactly as the whole
 * one: jieba's choice for a run depends only on the dictionary words found inside it (and on
 * the words' frequencies) and on the total of all frequencies, so the small dictionary holds
 * every word that occurs in the runs, and one line for a word no text can hold that carries
 * the frequency of all the others, so the total is the same.
 */
export class JiebaDictionary {
  private readonly bytes: Uint8Array;
  private total: number | undefined;
  /** Every line. */
  private readonly whole: LineRange;
  /** The lines of the words that start with a character, or with two (by their UTF-8 bytes). */
  private readonly prefixLines = new Map<number, LineRange | null>();
  private readonly encoder = new TextEncoder();
  private buffer = new Uint8Array(1024);

  /**
   * `bytes`: the dictionary file; its lines must be sorted by their words' bytes, as jieba's
   * bundled one is (`assertSorted` checks). `total`: the sum of its frequencies, when known
   * (otherwise it is worked out on first use, about 10 ms for the bundled dictionary).
   */
  constructor(bytes: Uint8Array, total?: number) {
    this.bytes = bytes;
    this.total = total;
    this.whole = { start: 0, end: bytes.length };
  }

  /** The whole dictionary file, as given. */
  fileBytes(): Uint8Array {
    return this.bytes;
  }

  /** The sum of the frequencies of all the dictionary's words. */
  frequencyTotal(): number {
    if (this.total !== undefined) return this.total;
    let total = 0;
    for (let start = 0; start < this.bytes.length; start = this.nextLine(start)) total += this.frequencyAt(start);
    this.total = total;
    return total;
  }

  /** Throws when a line's word does not sort after the one before: the search needs the order. */
  assertSorted(): void {
    let previous = -1;
    for (let start = 0; start < this.bytes.length; start = this.nextLine(start)) {
      if (previous >= 0 && this.compareLines(previous, start) >= 0) {
        throw new Error(`jieba dictionary: the word at byte ${start} does not sort after the one before`);
      }
      previous = start;
    }
  }

  /**
   * A dictionary (file bytes, for `Jieba.withDict`) that cuts `runs` exactly as this one: the
   * lines of every word that occurs in a run, and one line holding the rest of the total.
   */
  dictionaryFor(runs: readonly string[]): Uint8Array {
    const lines = new Set<number>();
    for (const run of runs) this.collectWords(run, lines);
    const starts = [...lines].sort((left, right) => left - right);
    let found = 0;
    let size = 0;
    for (const start of starts) {
      found += this.frequencyAt(start);
      size += this.nextLine(start) - start;
    }
    // Never below 0 (jieba refuses a negative frequency), even if a wrong total was given.
    const rest = this.encoder.encode(`${restWord} ${Math.max(0, this.frequencyTotal() - found)} x\n`);
    const out = new Uint8Array(size + rest.length + 1);
    let offset = 0;
    for (const start of starts) {
      const end = this.nextLine(start);
      out.set(this.bytes.subarray(start, end), offset);
      offset += end - start;
      // The file's last line may have no line break.
      if (out[offset - 1] !== newline) out[offset++] = newline;
    }
    out.set(rest, offset);
    return out.subarray(0, offset + rest.length);
  }

  /** Adds the line of every dictionary word that occurs in `run`. */
  private collectWords(run: string, lines: Set<number>): void {
    if (this.buffer.length < run.length * 3) this.buffer = new Uint8Array(run.length * 3);
    const text = this.buffer;
    const length = this.encoder.encodeInto(run, text).written;
    for (let start = 0; start < length; start = nextCharacter(text, start, length)) {
      // Dictionary words hold no white space or control characters.
      if ((text[start] as number) <= space) continue;
      let end = nextCharacter(text, start, length);
      const first = codePointKey(text, start, end);
      let range = this.cachedRange(first, text, start, end, this.whole);
      for (let characters = 1; range !== null; characters += 1) {
        if (this.isWord(range.start, text, start, end)) {
          lines.add(range.start);
          // Only the word itself starts with this prefix: no longer word does.
          if (range.end === this.nextLine(range.start)) break;
        }
        if (characters >= longestWord || end >= length || (text[end] as number) <= space) break;
        const next = nextCharacter(text, end, length);
        // Two-character prefixes repeat in a text: their lines are cached too.
        range =
          characters === 1
            ? this.cachedRange(first * 0x20_0000 + codePointKey(text, end, next), text, start, next, range)
            : this.prefixRange(text, start, next, range);
        end = next;
      }
    }
  }

  /** `prefixRange`, cached by `key` (the prefix's characters). */
  private cachedRange(key: number, text: Uint8Array, start: number, end: number, within: LineRange): LineRange | null {
    const cached = this.prefixLines.get(key);
    if (cached !== undefined) return cached;
    const range = this.prefixRange(text, start, end, within);
    if (this.prefixLines.size >= cachedPrefixes) this.prefixLines.clear();
    this.prefixLines.set(key, range);
    return range;
  }

  /** The lines, within `within`, of the words that start with `text[start..end)`; null when there are none. */
  private prefixRange(text: Uint8Array, start: number, end: number, within: LineRange): LineRange | null {
    // First line whose word is not before the prefix.
    let low = within.start;
    let high = within.end;
    while (low < high) {
      const line = this.lineStart((low + high) >>> 1);
      if (this.compareWord(line, text, start, end) < 0) low = this.nextLine(line);
      else high = line;
    }
    const first = low;
    if (first >= within.end || !this.hasPrefix(first, text, start, end)) return null;
    // First line after those that start with the prefix.
    high = within.end;
    while (low < high) {
      const line = this.lineStart((low + high) >>> 1);
      if (this.hasPrefix(line, text, start, end)) low = this.nextLine(line);
      else high = line;
    }
    return { start: first, end: low };
  }

  private lineStart(offset: number): number {
    return offset === 0 ? 0 : this.bytes.lastIndexOf(newline, offset - 1) + 1;
  }

  private nextLine(start: number): number {
    const end = this.bytes.indexOf(newline, start);
    return end < 0 ? this.bytes.length : end + 1;
  }

  /** The word of the line at `line` compared with `text[start..end)`: negative when it sorts before. */
  private compareWord(line: number, text: Uint8Array, start: number, end: number): number {
    for (let index = 0; ; index += 1) {
      const byte = this.bytes[line + index] ?? space;
      const ended = byte === space || byte === newline;
      if (start + index === end) return ended ? 0 : 1;
      if (ended) return -1;
      const other = text[start + index] as number;
      if (byte !== other) return byte - other;
    }
  }

  private compareLines(left: number, right: number): number {
    for (let index = 0; ; index += 1) {
      const a = this.bytes[left + index] ?? space;
      const b = this.bytes[right + index] ?? space;
      const aEnded = a === space || a === newline;
      const bEnded = b === space || b === newline;
      if (aEnded || bEnded) return aEnded && bEnded ? 0 : aEnded ? -1 : 1;
      if (a !== b) return a - b;
    }
  }

  /** Whether the line at `line` starts with `text[start..end)` (which holds no space, so it never runs into the frequency). */
  private hasPrefix(line: number, text: Uint8Array, start: number, end: number): boolean {
    const length = end - start;
    if (line + length > this.bytes.length) return false;
    for (let index = 0; index < length; index += 1) if (this.bytes[line + index] !== text[start + index]) return false;
    return true;
  }

  private isWord(line: number, text: Uint8Array, start: number, end: number): boolean {
    const after = this.bytes[line + end - start];
    // A last line may hold a bare word, with no frequency and no line break.
    return (after === space || after === newline || after === undefined) && this.hasPrefix(line, text, start, end);
  }

  /** The frequency of the line at `line` (its second field; 0 when it has none). */
  private frequencyAt(line: number): number {
    let index = line;
    while (index < this.bytes.length && this.bytes[index] !== space && this.bytes[index] !== newline) index += 1;
    if (this.bytes[index] !== space) return 0;
    index += 1;
    let frequency = 0;
    for (let byte = this.bytes[index]; byte !== undefined && byte >= 48 && byte <= 57; byte = this.bytes[++index]) {
      frequency = frequency * 10 + (byte - 48);
    }
    return frequency;
  }
}

/** The offset of the character after the one at `start` (UTF-8), at most `length`. */
function nextCharacter(text: Uint8Array, start: number, length: number): number {
  let next = start + 1;
  while (next < length && ((text[next] as number) & 0xc0) === 0x80) next += 1;
  return next;
}

/** The code point of the UTF-8 character at `text[start..end)` (below 2^21). */
function codePointKey(text: Uint8Array, start: number, end: number): number {
  const lead = text[start] as number;
  if (end - start === 1) return lead;
  let point = lead & (0xff >> (end - start + 1));
  for (let index = start + 1; index < end; index += 1) point = point * 64 + ((text[index] as number) & 0x3f);
  return point;
}
