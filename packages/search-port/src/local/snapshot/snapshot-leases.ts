import type { IndexSnapshot } from "./index-snapshot.js";

/**
 * Keeps the files of a generation open while searches use it. A reader that loads a newer
 * commit retires the old snapshot: its content and metadata files close at once when no
 * search holds it, else when the last one that does finishes, so a search in flight ends
 * on the generation it started with (its open descriptors keep the files readable even
 * after the writer removed them).
 */
export class SnapshotLeases {
  private readonly users = new Map<IndexSnapshot, number>();
  private readonly retired = new Set<IndexSnapshot>();

  /** Marks `snapshot` in use; call the returned function (once) when done with it. */
  acquire(snapshot: IndexSnapshot): () => void {
    this.users.set(snapshot, (this.users.get(snapshot) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.users.get(snapshot) ?? 1) - 1;
      if (left > 0) {
        this.users.set(snapshot, left);
        return;
      }
      this.users.delete(snapshot);
      if (this.retired.delete(snapshot)) snapshot.records.file?.close();
    };
  }

  /** Closes `snapshot`'s files now if no search holds it, else once the last one lets go. */
  retire(snapshot: IndexSnapshot): void {
    if (this.users.has(snapshot)) this.retired.add(snapshot);
    else snapshot.records.file?.close();
  }
}
