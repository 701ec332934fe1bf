/** Slots to start with, and the most the table grows to (a power of two each). */
const initialSlots = 1 << 12;
const maximumSlots = 1 << 19;

/**
 * A bounded cache from the words of ASCII text to what the lexical view makes of them (its
 * Porter stem, or `null` for a word it drops), looked up by a slice of the text without
 * cutting it out: a word seen before costs a hash and a comparison of its characters, and no
 * string is made. Keys are lower case; the slice is lower-cased as it is read.
 * Open addressing (linear probing) on a power-of-two table kept at most half full; it doubles
 * up to `maximumSlots`, and past that it is emptied and fills again (a clear costs less than
 * keeping words in order of use, measured: README, "Speed in a build").
 */
export class TermTable {
  private hashes = new Int32Array(initialSlots);
  private keys: (string | undefined)[] = new Array(initialSlots);
  private values: (string | null)[] = new Array(initialSlots);
  private size = 0;

  /** `derive`: what a lower-case word becomes (`null`: dropped). */
  constructor(private readonly derive: (word: string) => string | null) {}

  /**
   * What `derive` gives for `source.slice(start, end).toLowerCase()`; the slice holds ASCII
   * only. `hash`: `wordHash` of the slice, worked out as it was read; `lowerCase`: whether
   * the slice is lower case already (it is then compared with a key natively).
   */
  termOf(source: string, start: number, end: number, hash: number, lowerCase: boolean): string | null {
    hash = Math.imul(hash ^ (end - start), 0x01000193);
    // 0 marks an empty slot.
    hash = hash === 0 ? 1 : hash;
    const hashes = this.hashes;
    const mask = hashes.length - 1;
    let slot = (hash ^ (hash >>> 15)) & mask;
    for (let seen = hashes[slot] as number; seen !== 0; seen = hashes[slot] as number) {
      if (seen === hash) {
        const key = this.keys[slot] as string;
        const same = key.length === end - start && (lowerCase ? source.startsWith(key, start) : sameWord(key, source, start, end));
        if (same) return this.values[slot] as string | null;
      }
      slot = (slot + 1) & mask;
    }
    const word = source.slice(start, end).toLowerCase();
    const value = this.derive(word);
    if (this.size + 1 > hashes.length >>> 1) {
      this.makeRoom();
      return this.insert(hash, word, value);
    }
    hashes[slot] = hash;
    this.keys[slot] = word;
    this.values[slot] = value;
    this.size += 1;
    return value;
  }

  /** Doubles the table, or empties it once it is as large as it may grow. */
  private makeRoom(): void {
    const hashes = this.hashes;
    const keys = this.keys;
    const values = this.values;
    const slots = hashes.length >= maximumSlots ? hashes.length : hashes.length * 2;
    this.hashes = new Int32Array(slots);
    this.keys = new Array(slots);
    this.values = new Array(slots);
    this.size = 0;
    if (slots === hashes.length) return;
    for (let slot = 0; slot < hashes.length; slot += 1) {
      const hash = hashes[slot] as number;
      if (hash !== 0) this.insert(hash, keys[slot] as string, values[slot] as string | null);
    }
  }

  private insert(hash: number, word: string, value: string | null): string | null {
    const mask = this.hashes.length - 1;
    let slot = (hash ^ (hash >>> 15)) & mask;
    while (this.hashes[slot] !== 0) slot = (slot + 1) & mask;
    this.hashes[slot] = hash;
    this.keys[slot] = word;
    this.values[slot] = value;
    this.size += 1;
    return value;
  }
}

/** The hash a word starts with, before its first character (`addToWordHash`). */
export const wordHashStart = 0x811c9dc5 | 0;

/** The hash of a word so far, with one more ASCII character (lower-cased); FNV-1a. */
export function addToWordHash(hash: number, code: number): number {
  return Math.imul(hash ^ (code >= 0x41 && code <= 0x5a ? code + 0x20 : code), 0x01000193);
}

/** The hash `TermTable.termOf` takes for `source.slice(start, end)`. */
export function wordHash(source: string, start: number, end: number): number {
  let hash = wordHashStart;
  for (let index = start; index < end; index += 1) hash = addToWordHash(hash, source.charCodeAt(index));
  return hash;
}

/** Whether `word` (lower case) is `source.slice(start, end)` lower-cased (ASCII). */
function sameWord(word: string, source: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let index = 0; index < word.length; index += 1) {
    const code = source.charCodeAt(start + index);
    if (word.charCodeAt(index) !== (code >= 0x41 && code <= 0x5a ? code + 0x20 : code)) return false;
  }
  return true;
}
