import { statSync } from "node:fs";
import { join } from "node:path";
import { manifestFileName } from "../format/index-manifest.js";

/** The default of `refreshIntervalMs`: how often a reader looks for a newer commit. */
export const defaultRefreshIntervalMs = 1000;

/**
 * Tells a reader, cheaply, whether `manifest.json` may name a newer commit: one `stat`,
 * at most every `intervalMs` (0: on every call), compared with the file's identity, size
 * and time stamp when the reader last loaded it. A commit renames a new file over the
 * manifest, so a new commit always shows as another inode. No watcher: nothing runs
 * between searches, and nothing is left to stop on close.
 */
export class ManifestWatch {
  private readonly path: string;
  private lastCheck: number;
  private seen: string | undefined;

  /** Takes the manifest's signature now: call it before reading the manifest it describes. */
  constructor(
    directory: string,
    private readonly intervalMs: number,
  ) {
    this.path = join(directory, manifestFileName);
    this.seen = this.signature();
    this.lastCheck = Date.now();
  }

  /**
   * The manifest's new signature when it is time to check and the file changed since the
   * accepted one; undefined otherwise. Pass it to `accept` once the commit it names is
   * loaded, or once its load failed and was reported (reader-refresh.ts): that commit is
   * then not tried again, only the next one. A manifest that vanished meanwhile stays
   * unaccepted, so the next check looks again.
   */
  changed(): string | undefined {
    const now = Date.now();
    if (now - this.lastCheck < this.intervalMs) return undefined;
    this.lastCheck = now;
    const signature = this.signature();
    return signature === undefined || signature === this.seen ? undefined : signature;
  }

  accept(signature: string): void {
    this.seen = signature;
  }

  private signature(): string | undefined {
    try {
      const stats = statSync(this.path, { bigint: true });
      return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`;
    } catch {
      // No manifest (the folder was removed): keep serving what is loaded.
      return undefined;
    }
  }
}
