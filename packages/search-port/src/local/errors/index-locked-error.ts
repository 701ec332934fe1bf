import { LookupKnowledgeError, printable } from "@lookup-knowledge/core";
import type { SearchPortErrorCode } from "../../search-port-error-code.js";

const marker = "lookup-knowledge.error.index-locked";
const symbol = Symbol.for(marker);

/**
 * Another writer holds the index folder's lock (only one process may write at a time), or
 * this writer lost its lock. Readers never need the lock. Retrying can help once the other
 * writer has closed.
 */
export class IndexLockedError extends LookupKnowledgeError<Extract<SearchPortErrorCode, "index_locked">> {
  private readonly [symbol] = true;
  readonly directory: string;
  /** Who holds the lock, as its owner file names it, unescaped; undefined when not known. */
  readonly holder: string | undefined;

  /**
   * `holder`: who holds the lock, as its owner file names it (a process id and host), when known.
   * Another process wrote that file, so the message shows it through `printable`: a host name
   * holding terminal escapes is not replayed by whoever prints `error.message`.
   */
  constructor(options: { directory: string; reason?: string | undefined; holder?: string | undefined; cause?: unknown }) {
    const holder = options.holder === undefined ? "" : ` (${printable(options.holder)})`;
    super({
      code: "index_locked",
      message:
        options.reason ??
        `The index at ${options.directory} is locked: another process is writing to it${holder}. ` +
          "Wait until it closes the index (the lock of a writer that died on this host is taken over at once; " +
          'one held from another host goes stale 30 s after its last refresh), or open the index with mode "read".',
      cause: options.cause,
      retryable: true,
    });
    this.name = "IndexLockedError";
    this.directory = options.directory;
    this.holder = options.holder;
  }

  static override isInstance(error: unknown): error is IndexLockedError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}
