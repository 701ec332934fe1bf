/** The fewest slots a table starts with. */
const smallestCapacity = 1024;

/**
 * A multimap from 32-bit hashes to numbers below 2^32 - 1, in two typed arrays (8 bytes a
 * slot, open addressing, at most three quarters full, so 11 to 21 bytes a number): what a
 * writer keeps per record to find where a record id is, where a `Map` of every id held a
 * string and an entry each (well over 100 bytes a record). Numbers are only added; a lookup
 * is offered every number stored under its hash, and the caller tells which one it wants
 * (several texts share a hash, and a number may name a record since replaced).
 */
export class HashSlots {
  private hashes: Uint32Array;
  /** Each slot's number plus one; 0: an empty slot. */
  private values: Uint32Array;
  private used = 0;

  constructor() {
    this.hashes = new Uint32Array(smallestCapacity);
    this.values = new Uint32Array(smallestCapacity);
  }

  /** Numbers stored. */
  get size(): number {
    return this.used;
  }

  /** Bytes of the two tables. */
  get bytes(): number {
    return this.hashes.byteLength + this.values.byteLength;
  }

  add(hash: number, value: number): void {
    if (!(value >= 0 && value < 0xffffffff)) throw new RangeError(`HashSlots holds numbers below 2^32 - 1, got ${value}`);
    if (4 * (this.used + 1) > 3 * this.values.length) this.grow();
    place(this.hashes, this.values, hash >>> 0, value + 1);
    this.used += 1;
  }

  /** The first number stored under `hash` that `accept` takes, or -1 when it takes none. */
  find(hash: number, accept: (value: number) => boolean): number {
    const { hashes, values } = this;
    const mask = values.length - 1;
    const wanted = hash >>> 0;
    for (let at = wanted & mask; values[at] !== 0; at = (at + 1) & mask) {
      if (hashes[at] === wanted && accept((values[at] as number) - 1)) return (values[at] as number) - 1;
    }
    return -1;
  }

  private grow(): void {
    const { hashes, values } = this;
    this.hashes = new Uint32Array(2 * hashes.length);
    this.values = new Uint32Array(2 * values.length);
    for (let at = 0; at < values.length; at += 1) {
      if (values[at] !== 0) place(this.hashes, this.values, hashes[at] as number, values[at] as number);
    }
  }
}

function place(hashes: Uint32Array, values: Uint32Array, hash: number, stored: number): void {
  const mask = values.length - 1;
  let at = hash & mask;
  while (values[at] !== 0) at = (at + 1) & mask;
  hashes[at] = hash;
  values[at] = stored;
}
