/** The typed arrays a `TypedPool` hands out views of. */
type PooledArray = Uint32Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Int8Array<ArrayBuffer>;

/**
 * Hands out zero-filled arrays as views of large blocks, for the arrays every pending record
 * holds (its term ids, frequencies and vector codes): a build stages some 50,000 records
 * before a flush, and an array of their own each (three a record) is an `ArrayBuffer`
 * allocated outside the heap and tracked by the garbage collector one by one: alone, about
 * twice the CPU of the views; in a build, no CPU change measured, a lower peak RSS
 * (bench/index-peers/README.md, "Build rate, fourth pass"). A block stays in memory while any
 * view of it does; the records of one pending segment are dropped together, at its fold (those
 * replaced or deleted before it: `PendingChanges` copies the others out when they outweigh them).
 */
export class TypedPool<T extends PooledArray> {
  private block: T;
  private used = 0;
  /** The bytes of every array handed out (`take`, `copy`) since the pool was made. */
  takenBytes = 0;

  /** `make`: a new zero-filled array of a length; `blockLength`: the length of each block. */
  constructor(
    private readonly make: (length: number) => T,
    private readonly blockLength: number,
  ) {
    this.block = make(0);
  }

  /** A zero-filled array of `length`: a view of the current block, or an array of its own when longer than a block. */
  take(length: number): T {
    this.takenBytes += length * this.block.BYTES_PER_ELEMENT;
    if (length > this.blockLength) return this.make(length);
    if (this.used + length > this.block.length) {
      this.block = this.make(this.blockLength);
      this.used = 0;
    }
    const view = this.block.subarray(this.used, this.used + length) as T;
    this.used += length;
    return view;
  }

  /** A copy of `array` taken from the pool (`take`). */
  copy(array: ArrayLike<number>): T {
    const copied = this.take(array.length);
    (copied as { set(source: ArrayLike<number>): void }).set(array);
    return copied;
  }
}
