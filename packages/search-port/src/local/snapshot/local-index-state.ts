import type { IndexManifest } from "../format/index-manifest.js";
import { emptySnapshot } from "./index-snapshot.js";
import type { IndexSnapshot } from "./index-snapshot.js";
import { mergeSnapshot } from "./merge-snapshot.js";
import { PendingChanges } from "./pending-changes.js";

/**
 * What one open port holds of its index: the manifest it last read or wrote, the generation
 * loaded from it (`base`) and, for a writer, the changes not yet folded in (`pending`), with
 * the lookups from record and document ids to slots of `base`.
 */
export class LocalIndexState {
  manifest: IndexManifest | undefined;
  base: IndexSnapshot;
  pending: PendingChanges | undefined;
  private slotOfId: Map<string, number> | undefined;
  private slotsOfDocument: Map<string, number[]> | undefined;

  /** `opened`: the committed generation the port opened (`OpenedIndex`), if any; `dimension`: of the vectors a writer adds (0: it adds none). */
  constructor(
    opened: { manifest: IndexManifest; snapshot: IndexSnapshot } | undefined,
    readonly dimension: number,
  ) {
    this.manifest = opened?.manifest;
    this.base = opened?.snapshot ?? emptySnapshot();
  }

  /** The state searches see: the base with pending changes folded in. */
  current(): IndexSnapshot {
    if (this.pending !== undefined && !this.pending.isEmpty) {
      this.base = mergeSnapshot(this.base, this.pending, this.dimension);
      this.pending = undefined;
      this.slotOfId = undefined;
      this.slotsOfDocument = undefined;
    }
    return this.base;
  }

  changes(): PendingChanges {
    this.pending ??= new PendingChanges(this.base.count);
    return this.pending;
  }

  idSlots(): Map<string, number> {
    if (this.slotOfId === undefined) {
      const map = new Map<string, number>();
      this.base.keys.arrays().ids.forEach((id, slot) => {
        map.set(id, slot);
      });
      this.slotOfId = map;
    }
    return this.slotOfId;
  }

  documentSlots(): Map<string, number[]> {
    if (this.slotsOfDocument === undefined) {
      const map = new Map<string, number[]>();
      this.base.keys.arrays().docIds.forEach((docId, slot) => {
        if (docId === null) return;
        const slots = map.get(docId);
        if (slots === undefined) map.set(docId, [slot]);
        else slots.push(slot);
      });
      this.slotsOfDocument = map;
    }
    return this.slotsOfDocument;
  }
}
