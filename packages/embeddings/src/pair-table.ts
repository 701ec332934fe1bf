/**
 * A table from a pair of slot numbers (both at least 1) to a value, for the stem pairs of
 * `LexicalFeatures`: open addressing over two typed arrays of keys, so a lookup reads a few
 * numbers close together instead of one small `Map` per first stem (tens of thousands of
 * them, each a lookup away in memory). Grows at half full; `clear` empties it.
 */
export class PairTable<T> {
  /** The first and second numbers of each entry, side by side (0: empty). */
  private keys: Int32Array;
  private values: (T | undefined)[];
  private mask: number;
  private size = 0;

  constructor(initialCapacity = 1 << 12) {
    this.keys = new Int32Array(initialCapacity * 2);
    this.values = new Array<T | undefined>(initialCapacity).fill(undefined);
    this.mask = initialCapacity - 1;
  }

  /** The value of the pair (`first`, `second`), or undefined. */
  get(first: number, second: number): T | undefined {
    const keys = this.keys;
    let index = spread(first, second) & this.mask;
    for (;;) {
      const at = keys[index * 2] as number;
      if (at === 0) return undefined;
      if (at === first && keys[index * 2 + 1] === second) return this.values[index];
      index = (index + 1) & this.mask;
    }
  }

  /** Sets the value of a pair that the table does not hold yet. */
  add(first: number, second: number, value: T): void {
    if ((this.size + 1) * 2 > this.values.length) this.grow();
    this.place(first, second, value);
    this.size += 1;
  }

  clear(): void {
    if (this.size === 0) return;
    this.keys.fill(0);
    this.values.fill(undefined);
    this.size = 0;
  }

  private place(first: number, second: number, value: T): void {
    const keys = this.keys;
    let index = spread(first, second) & this.mask;
    while (keys[index * 2] !== 0) index = (index + 1) & this.mask;
    keys[index * 2] = first;
    keys[index * 2 + 1] = second;
    this.values[index] = value;
  }

  private grow(): void {
    const { keys, values } = this;
    const capacity = values.length * 2;
    this.keys = new Int32Array(capacity * 2);
    this.values = new Array<T | undefined>(capacity).fill(undefined);
    this.mask = capacity - 1;
    for (let index = 0; index < values.length; index += 1) {
      const first = keys[index * 2] as number;
      if (first !== 0) this.place(first, keys[index * 2 + 1] as number, values[index] as T);
    }
  }
}

/** A hash of two numbers whose low bits depend on all of both (multiplicative mixing). */
function spread(first: number, second: number): number {
  const mixed = Math.imul(first, 0x9e3779b1) ^ Math.imul(second, 0x85ebca77);
  return (mixed ^ (mixed >>> 15)) >>> 0;
}
