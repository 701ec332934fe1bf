import { stat } from "node:fs/promises";
import { readRegularFile } from "./read-regular-file.js";

/**
 * Reads files in the order they are asked for, with the next few already on their way: a
 * parse on the calling thread then rarely waits for the disk (or the thread pool) between
 * files. At most `depth` files are read ahead, and only while the files read ahead and not
 * yet taken come to at most `maxBytes` by their size when they were read ahead (a file that
 * does not fit is read when it is asked for).
 *
 * Once `signal` is aborted, no file is read ahead any more, the files read ahead are let go
 * (`heldBytes` is 0), and every read asked for and not yet given, or asked for afterwards,
 * rejects at once with the signal's reason. `close` lets go of the signal and the files.
 */
export class ReadAhead {
  /** The reads started ahead, by index: the bytes, or undefined when the file did not fit. */
  private readonly started = new Map<number, Promise<Buffer | undefined>>();
  /** The size of each file read ahead and not yet taken, and their sum. */
  private readonly sizes = new Map<number, number>();
  private reserved = 0;
  /** Rejects each read asked for and not yet given (when `signal` is aborted). */
  private readonly waiting = new Set<(reason: unknown) => void>();
  private readonly onAbort = (): void => {
    this.letGo();
    for (const reject of this.waiting) reject(this.signal?.reason);
    this.waiting.clear();
  };

  constructor(
    /** The files by index; `undefined` for one that is never read. */
    private readonly paths: ReadonlyArray<string | undefined>,
    private readonly depth: number,
    private readonly maxBytes: number,
    private readonly signal?: AbortSignal,
  ) {
    signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  /** The bytes of file `index`; starts reading the files after it. A failed read rejects here, and only here. */
  read(index: number): Promise<Buffer> {
    const { signal } = this;
    if (signal?.aborted) {
      this.letGo();
      return Promise.reject(signal.reason);
    }
    const path = this.paths[index];
    if (path === undefined) return Promise.reject(new Error(`read-ahead: file ${index} is not to be read`));
    const ahead = this.started.get(index);
    this.started.delete(index);
    this.reserved -= this.sizes.get(index) ?? 0;
    this.sizes.delete(index);
    for (let next = index + 1; next <= index + this.depth && next < this.paths.length; next += 1) {
      const nextPath = this.paths[next];
      if (nextPath !== undefined && !this.started.has(next)) this.readAhead(next, nextPath);
    }
    const reading = ahead === undefined ? this.readFile(path) : ahead.then((bytes) => bytes ?? this.readFile(path));
    if (signal === undefined) return reading;
    return new Promise<Buffer>((resolve, reject) => {
      this.waiting.add(reject);
      reading.then(resolve, (error: unknown) => reject(signal.aborted ? signal.reason : error)).finally(() => this.waiting.delete(reject));
    });
  }

  /** The bytes read ahead and not yet taken (by their size when read ahead). */
  get heldBytes(): number {
    return this.reserved;
  }

  /** Stops listening to the signal and lets go of the files read ahead and not yet taken. */
  close(): void {
    this.signal?.removeEventListener("abort", this.onAbort);
    this.letGo();
  }

  private readAhead(index: number, path: string): void {
    const reading = stat(path).then((stats) => {
      // Taken or let go in the meantime, or too large to hold: read when asked for.
      if (!this.started.has(index) || this.reserved + stats.size > this.maxBytes) return undefined;
      this.reserved += stats.size;
      this.sizes.set(index, stats.size);
      // The stats just taken say whether it is a regular file: not asked for a second time.
      return readRegularFile(path, this.signal, stats);
    });
    // A failure is reported by `read`; until then (or when never asked for) it must not count as unhandled.
    reading.catch(() => undefined);
    this.started.set(index, reading);
  }

  private readFile(path: string): Promise<Buffer> {
    return readRegularFile(path, this.signal);
  }

  /** Forgets the reads started ahead, so their bytes are no longer held. */
  private letGo(): void {
    this.started.clear();
    this.sizes.clear();
    this.reserved = 0;
  }
}
