import type { TermNumbering } from "./term-numbering.js";

/** Slots to start with, and the most the table grows to (a power of two each). */
// Issue 36 item 6: each doubling reassigns the arrays, which throws away the optimised code of
// every method that reads them (V8 had taken the fields for constants), so a short process pays
// for optimising it again. 32,768 slots hold 16,384 words (an ingest of the APISIX docs has 7,000)
// before the first doubling, for 1 MB: the writer's terms over its 2,518 chunks, cold, took 179 ms
// of CPU instead of 244, warm the same (bench/ingest-peers README, sixth pass).
export const initialSlots = 1 << 15;
const maximumSlots = 1 << 19;
/** Int32 fields of a slot: hash (0: empty), key (`start << 7 | length` in `characters`), numbering stamp, id. */
const fields = 4;
/** The stamp of a word that gives no term (a stop word): its id is -1 under every numbering. */
const droppedStamp = -1;
/** Key lengths are kept in 7 bits; `addWordTerms` drops words of more than 64 characters before. */
const longestKey = 127;

/**
 * A bounded cache from the words of ASCII text to what the lexical view makes of them (its
 * Porter stem, or `null` for a word it drops), looked up by a slice of the text without
 * cutting it out: a word seen before costs a hash and a comparison of its characters, and no
 * string is made. Keys are lower case; the slice is lower-cased as it is read.
 * A slot is four integers side by side in one typed array, and the keys' characters are kept
 * in one byte array, so that a lookup reads two places in memory, not the several objects a
 * table of strings would (a build looks up every word of every record here). A slot also
 * holds the word's term id under the last `TermNumbering` that asked (`termIdOf`).
 * Open addressing (linear probing) on a power-of-two table kept at most half full; it doubles
 * up to `maximumSlots`, and past that it is emptied and fills again (a clear costs less than
 * keeping words in order of use, measured: README, "Speed in a build").
 */
export class TermTable {
  private slots = new Int32Array(initialSlots * fields);
  private values: (string | null)[] = new Array(initialSlots);
  private characters = new Uint8Array(initialSlots * 8);
  private charactersUsed = 0;
  private size = 0;

  /** `derive`: what a lower-case word becomes (`null`: dropped). */
  constructor(private readonly derive: (word: string) => string | null) {}

  /**
   * What `derive` gives for `source.slice(start, end).toLowerCase()`; the slice holds ASCII
   * only and is at most 127 characters long. `hash`: `wordHash` of the slice, worked out as it
   * was read; `lowerCase`: whether the slice is lower case already.
   */
  termOf(source: string, start: number, end: number, hash: number, lowerCase: boolean): string | null {
    // The slot first: finding it may grow the table, and with it `values`.
    const slot = this.slotOf(source, start, end, hash, lowerCase);
    return this.values[slot] as string | null;
  }

  /**
   * The id under `numbering` of what `termOf` gives (-1 when that is `null`): remembered in the
   * word's slot, so only the first sight of a word (since the table last let it go) asks
   * `numbering`.
   */
  termIdOf(source: string, start: number, end: number, hash: number, lowerCase: boolean, numbering: TermNumbering): number {
    const slot = this.slotOf(source, start, end, hash, lowerCase);
    const slots = this.slots;
    const at = slot * fields;
    const stamp = slots[at + 2] as number;
    if (stamp === numbering.stamp) return slots[at + 3] as number;
    if (stamp === droppedStamp) return -1;
    const id = numbering.idOf(this.values[slot] as string);
    slots[at + 2] = numbering.stamp;
    slots[at + 3] = id;
    return id;
  }

  /** The slot of the slice's word, filled now if the table does not hold it. */
  private slotOf(source: string, start: number, end: number, hash: number, lowerCase: boolean): number {
    const length = end - start;
    if (length > longestKey) throw new RangeError(`TermTable: a word of ${length} characters is longer than ${longestKey}`);
    hash = Math.imul(hash ^ length, 0x01000193);
    // 0 marks an empty slot.
    hash = hash === 0 ? 1 : hash;
    const slots = this.slots;
    const mask = (slots.length >>> 2) - 1;
    let slot = (hash ^ (hash >>> 15)) & mask;
    for (let seen = slots[slot * fields] as number; seen !== 0; seen = slots[slot * fields] as number) {
      if (seen === hash) {
        const key = slots[slot * fields + 1] as number;
        if ((key & longestKey) === length && this.sameKey(key >>> 7, source, start, length, lowerCase)) return slot;
      }
      slot = (slot + 1) & mask;
    }
    const word = source.slice(start, end).toLowerCase();
    const value = this.derive(word);
    if (this.size + 1 > (slots.length >>> 2) >>> 1) {
      this.makeRoom();
      return this.insert(hash, word, value);
    }
    return this.fill(slot, hash, word, value);
  }

  /** Whether the key at `keyStart` holds the `length` characters of `source` from `start`, lower-cased. */
  private sameKey(keyStart: number, source: string, start: number, length: number, lowerCase: boolean): boolean {
    const characters = this.characters;
    if (lowerCase) {
      for (let offset = 0; offset < length; offset += 1) {
        if (characters[keyStart + offset] !== source.charCodeAt(start + offset)) return false;
      }
      return true;
    }
    for (let offset = 0; offset < length; offset += 1) {
      const code = source.charCodeAt(start + offset);
      if (characters[keyStart + offset] !== (code >= 0x41 && code <= 0x5a ? code + 0x20 : code)) return false;
    }
    return true;
  }

  /** Doubles the table, or empties it once it is as large as it may grow. */
  private makeRoom(): void {
    const slots = this.slots;
    const values = this.values;
    const slotCount = slots.length >>> 2;
    const grown = slotCount >= maximumSlots ? slotCount : slotCount * 2;
    this.slots = new Int32Array(grown * fields);
    this.values = new Array(grown);
    this.size = 0;
    if (grown === slotCount) {
      this.charactersUsed = 0;
      return;
    }
    const mask = grown - 1;
    for (let slot = 0; slot < slotCount; slot += 1) {
      const hash = slots[slot * fields] as number;
      if (hash === 0) continue;
      let to = (hash ^ (hash >>> 15)) & mask;
      while (this.slots[to * fields] !== 0) to = (to + 1) & mask;
      this.slots.set(slots.subarray(slot * fields, slot * fields + fields), to * fields);
      this.values[to] = values[slot] as string | null;
      this.size += 1;
    }
  }

  private insert(hash: number, word: string, value: string | null): number {
    const mask = (this.slots.length >>> 2) - 1;
    let slot = (hash ^ (hash >>> 15)) & mask;
    while (this.slots[slot * fields] !== 0) slot = (slot + 1) & mask;
    return this.fill(slot, hash, word, value);
  }

  /** Puts `word` (lower case ASCII) and its value in the empty `slot`. */
  private fill(slot: number, hash: number, word: string, value: string | null): number {
    if (this.charactersUsed + word.length > this.characters.length) {
      const characters = new Uint8Array(Math.max(2 * this.characters.length, this.charactersUsed + word.length));
      characters.set(this.characters.subarray(0, this.charactersUsed));
      this.characters = characters;
    }
    const keyStart = this.charactersUsed;
    for (let offset = 0; offset < word.length; offset += 1) this.characters[keyStart + offset] = word.charCodeAt(offset);
    this.charactersUsed += word.length;
    const at = slot * fields;
    this.slots[at] = hash;
    this.slots[at + 1] = (keyStart << 7) | word.length;
    this.slots[at + 2] = value === null ? droppedStamp : 0;
    this.slots[at + 3] = -1;
    this.values[slot] = value;
    this.size += 1;
    return slot;
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
