import { readFile } from "node:fs/promises";

/**
 * Reads files in the order they are asked for, with the next few already on their way: a
 * parse on the calling thread then rarely waits for the disk (or the thread pool) between
 * files. At most `depth` files are read ahead, and none while the files read ahead but not
 * yet taken hold `maxBytes` or more.
 */
export class ReadAhead {
  private readonly started = new Map<number, Promise<Buffer>>();
  /** Bytes of the files read ahead, in and not yet taken (by index), and their sum. */
  private readonly sizes = new Map<number, number>();
  private held = 0;

  constructor(
    /** The files by index; `undefined` for one that is never read. */
    private readonly paths: ReadonlyArray<string | undefined>,
    private readonly depth: number,
    private readonly maxBytes: number,
  ) {}

  /** The bytes of file `index`; starts the reads of the files after it. A failed read rejects here, and only here. */
  read(index: number): Promise<Buffer> {
    const bytes = this.started.get(index) ?? this.start(index);
    this.started.delete(index);
    this.held -= this.sizes.get(index) ?? 0;
    this.sizes.delete(index);
    for (let next = index + 1; next <= index + this.depth && next < this.paths.length; next += 1) {
      if (this.held >= this.maxBytes) break;
      if (this.paths[next] !== undefined && !this.started.has(next)) this.start(next);
    }
    return bytes;
  }

  private start(index: number): Promise<Buffer> {
    const path = this.paths[index];
    if (path === undefined) return Promise.reject(new Error(`read-ahead: file ${index} is not to be read`));
    const reading = readFile(path).then((buffer) => {
      // Held until taken; a file already taken (asked for before it was in) is not.
      if (this.started.has(index)) {
        this.sizes.set(index, buffer.length);
        this.held += buffer.length;
      }
      return buffer;
    });
    // A failure is reported by `read`; until then it must not count as unhandled.
    reading.catch(() => undefined);
    this.started.set(index, reading);
    return reading;
  }
}
