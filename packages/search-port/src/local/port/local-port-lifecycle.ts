import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { SearchPortErrorCode } from "../../search-port-error-code.js";

/**
 * Where an open local port is in its life, asked by its reader and writer before they work.
 * `open`; `closing` once `close` was called: new calls are refused, but queued writes and
 * searches already running finish; `closed` once they have, and the files and lock are released.
 */
export class LocalPortLifecycle {
  private phase: "open" | "closing" | "closed" = "open";

  constructor(private readonly directory: string) {}

  /** For a new call: refused once `close` was called. */
  ensureOpen(): void {
    if (this.phase !== "open") throw this.closedError();
  }

  /** For work already accepted (queued or running): refused only once the port is closed. */
  ensureNotClosed(): void {
    if (this.phase === "closed") throw this.closedError();
  }

  /** `close` was called: new calls are refused from now on. */
  beginClosing(): void {
    this.phase = "closing";
  }

  /** The accepted work has settled: every call is refused from now on. */
  markClosed(): void {
    this.phase = "closed";
  }

  private closedError(): LookupKnowledgeError {
    return new LookupKnowledgeError<SearchPortErrorCode>({
      code: "index_closed",
      message:
        this.phase === "closing" ? `The local index at ${this.directory} is closing` : `The local index at ${this.directory} was closed`,
    });
  }
}
