/**
 * The record id and document id of every slot of a snapshot. A committed generation of
 * format 4 reads them from its keys file when asked (`FileKeys`); everything else holds them
 * in memory (`MemoryKeys`).
 */
export interface SnapshotKeys {
  id(slot: number): string;
  /** The record's document (`docId`, else `doc_id`), or null. */
  docId(slot: number): string | null;
  /** All of them, in slot order (read whole the first time, then kept: a writer's or a fetch's need). */
  arrays(): { ids: readonly string[]; docIds: ReadonlyArray<string | null> };
  /** Visits every slot's record id in slot order, keeping none of them (a writer's lookups, built without holding every id). */
  eachId(visit: (id: string, slot: number) => void): void;
  /** Visits every slot's document id in slot order, keeping none of them. */
  eachDocId(visit: (docId: string | null, slot: number) => void): void;
}

export class MemoryKeys implements SnapshotKeys {
  constructor(
    readonly ids: readonly string[],
    readonly docIds: ReadonlyArray<string | null>,
  ) {}

  id(slot: number): string {
    return this.ids[slot] as string;
  }

  docId(slot: number): string | null {
    return this.docIds[slot] ?? null;
  }

  arrays(): { ids: readonly string[]; docIds: ReadonlyArray<string | null> } {
    return this;
  }

  eachId(visit: (id: string, slot: number) => void): void {
    for (let slot = 0; slot < this.ids.length; slot += 1) visit(this.ids[slot] as string, slot);
  }

  eachDocId(visit: (docId: string | null, slot: number) => void): void {
    for (let slot = 0; slot < this.ids.length; slot += 1) visit(this.docIds[slot] ?? null, slot);
  }
}
