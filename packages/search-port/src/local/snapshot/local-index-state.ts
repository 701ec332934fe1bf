import type { StoredManifest } from "../format/segmented-manifest.js";
import { composeSnapshot } from "../segments/compose-snapshot.js";
import { foldPendingChanges } from "../segments/fold-pending-changes.js";
import type { OpenedSegment } from "../segments/segment-part.js";
import type { IndexSnapshot } from "./index-snapshot.js";
import { PendingChanges } from "./pending-changes.js";

/**
 * One segment of a port's index: as the last commit wrote it (`committed`: listed in the
 * manifest the port last read or wrote), written by this writer since (a full segment it
 * flushed, listed by its next commit), or held in memory (`entry` undefined: the records
 * upserted since, or a lexicon rebuilt for another analyser), which the next commit writes.
 */
export interface StateSegment extends OpenedSegment {
  committed: boolean;
  /** The deleted slots the last commit listed (`deleted` holds those staged since too; both never changed once set). */
  committedDeleted: Uint8Array | undefined;
}

/**
 * What one open port holds of its index: the manifest it last read or wrote, its segments,
 * the segments searched as one (`base`, composed) and, for a writer, the changes not yet
 * folded in (`pending`), with the lookups from record and document ids to slots of `base`.
 */
export class LocalIndexState {
  manifest: StoredManifest | undefined;
  segments: StateSegment[];
  base: IndexSnapshot;
  pending: PendingChanges | undefined;
  /** The next commit writes every record into one new segment (an index of an older format, or a rebuilt lexicon). */
  rewriteAll: boolean;
  private slotOfId: Map<string, number> | undefined;
  private slotsOfDocument: Map<string, number[]> | undefined;

  /** `opened`: the committed index the port opened (`OpenedIndex`), if any; `dimension`: of the vectors a writer adds (0: it adds none). */
  constructor(
    opened: { manifest: StoredManifest; segments: OpenedSegment[]; snapshot: IndexSnapshot; startedEmpty?: boolean } | undefined,
    readonly dimension: number,
  ) {
    this.manifest = opened?.manifest;
    this.segments = (opened?.segments ?? []).map((segment) => ({
      ...segment,
      committed: segment.entry !== undefined,
      committedDeleted: segment.deleted,
    }));
    this.base = opened?.snapshot ?? composeSnapshot([]);
    this.rewriteAll =
      opened !== undefined && (opened.startedEmpty === true || opened.segments.some((segment) => segment.entry === undefined));
  }

  /** The state searches see: the segments with pending changes folded in. */
  current(): IndexSnapshot {
    if (this.pending !== undefined && !this.pending.isEmpty) {
      this.segments = foldPendingChanges(this.segments, this.pending, this.dimension);
      this.pending = undefined;
      this.recompose();
    }
    return this.base;
  }

  /** Searches see `segments` as one index from now on (after a fold, a flush or a commit). */
  recompose(): void {
    this.base = composeSnapshot(this.segments);
    this.slotOfId = undefined;
    this.slotsOfDocument = undefined;
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
