import type { HashedFileWriter } from "../format/hashed-file-writer.js";

/** Values a typed output holds before it hands them to the file. */
const chunkValues = 1 << 16;

type Typed = Uint32Array<ArrayBufferLike> | Uint16Array<ArrayBufferLike> | Uint8Array<ArrayBufferLike> | Float32Array<ArrayBufferLike>;

/**
 * Numbers appended to a file being written, in chunks of `chunkValues`: `push` and `pushAll`
 * are synchronous (a merge appends millions), full chunks wait in `pending` until `drain`
 * writes them, which the caller awaits now and then (after each term). So a section of
 * millions of numbers is written holding a few hundred KB.
 */
export class TypedOutput<T extends Typed> {
  private readonly chunk: T;
  private used = 0;
  private readonly pending: Uint8Array[] = [];

  constructor(
    private readonly writer: HashedFileWriter,
    make: (length: number) => T,
  ) {
    this.chunk = make(chunkValues);
  }

  push(value: number): void {
    this.chunk[this.used] = value;
    this.used += 1;
    if (this.used === chunkValues) this.hold();
  }

  /** Appends `values` (copied now: the caller may reuse their memory). */
  pushAll(values: Typed): void {
    let from = 0;
    while (from < values.length) {
      const take = Math.min(values.length - from, chunkValues - this.used);
      this.chunk.set(values.subarray(from, from + take), this.used);
      this.used += take;
      from += take;
      if (this.used === chunkValues) this.hold();
    }
  }

  /** Writes the full chunks held. */
  async drain(): Promise<void> {
    while (this.pending.length > 0) await this.writer.write(this.pending.shift() as Uint8Array);
  }

  /** Writes everything appended. */
  async flush(): Promise<void> {
    this.hold();
    await this.drain();
  }

  private hold(): void {
    if (this.used === 0) return;
    this.pending.push(new Uint8Array(this.chunk.buffer, this.chunk.byteOffset, this.used * this.chunk.BYTES_PER_ELEMENT).slice());
    this.used = 0;
  }
}
