import type { StoredManifest } from "../format/segmented-manifest.js";
import { composeSnapshot } from "../segments/compose-snapshot.js";
import { foldPendingChanges } from "../segments/fold-pending-changes.js";
import type { OpenedSegment } from "../segments/segment-part.js";
import { SlotMap } from "../segments/slot-map.js";
import { DocumentCounts } from "./document-counts.js";
import type { IndexSnapshot } from "./index-snapshot.js";
import { PendingChanges } from "./pending-changes.js";
import { RecordLocations } from "./record-locations.js";

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

/** A committed index as opened (`OpenedIndex` of reader/open-committed-index.ts). */
export interface OpenedState {
  manifest: StoredManifest;
  segments: OpenedSegment[];
  snapshot: IndexSnapshot;
  startedEmpty?: boolean;
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
  /** How `base`'s slots map to the segments' (made when a lookup first needs it). */
  private slotMap: SlotMap | undefined;
  /** Where each record id is among the segments: kept across folds, flushes and commits (`RecordLocations`). */
  private locations = new RecordLocations();
  /** Where each document's records are (made when a deletion first needs it, then kept like `locations`). */
  private documentLocations: RecordLocations | undefined;
  /** Live records per document id, and records without one (each its own document): kept up to date once counted. */
  private documentCounts: DocumentCounts | undefined;

  /** `opened`: the committed index the port opened (`OpenedIndex`), if any; `dimension`: of the vectors a writer adds (0: it adds none). */
  constructor(
    opened: OpenedState | undefined,
    readonly dimension: number,
  ) {
    this.manifest = opened?.manifest;
    this.segments = [];
    this.base = composeSnapshot([]);
    this.rewriteAll = false;
    this.adoptOpened(opened);
  }

  /**
   * Takes the committed index `opened` as it was read (a reader: a newer commit it loads; the
   * old snapshot's files are the caller's to close). Every opened segment holds records the
   * last commit counted, also a generation of format 6 or older or a lexicon rebuilt for this
   * analyser (neither has a manifest entry of its own): so they are `committed`.
   */
  adoptOpened(opened: OpenedState | undefined): void {
    this.manifest = opened?.manifest;
    this.segments = (opened?.segments ?? []).map((segment) => ({ ...segment, committed: true, committedDeleted: segment.deleted }));
    this.base = opened?.snapshot ?? composeSnapshot([]);
    this.rewriteAll =
      opened !== undefined && (opened.startedEmpty === true || opened.segments.some((segment) => segment.entry === undefined));
    this.slotMap = undefined;
    // Another writer's commit may have changed segments this one held: their ids are read again.
    this.locations = new RecordLocations();
    this.documentLocations = undefined;
    this.documentCounts = undefined;
  }

  /** The state searches see: the segments with pending changes folded in. */
  current(): IndexSnapshot {
    if (this.pending !== undefined && !this.pending.isEmpty) {
      if (this.documentCounts !== undefined) countChanges(this.documentCounts, this.base, this.pending);
      this.segments = foldPendingChanges(this.segments, this.pending, this.dimension);
      this.pending = undefined;
      this.recompose();
    }
    return this.base;
  }

  /** Searches see `segments` as one index from now on (after a fold, a flush or a commit). */
  recompose(): void {
    this.slotMap = new SlotMap(this.segments);
    this.base = composeSnapshot(this.segments, { slots: this.slotMap });
  }

  /**
   * Distinct documents among the live records (a record without a document id is one of its
   * own), as searches see them now: counted once from every segment's document ids (read
   * from its keys, none kept), then kept up to date by each fold, so a commit of a few
   * changes does not count a million records again.
   */
  documents(): number {
    this.current();
    if (this.documentCounts === undefined) {
      // The live records are as many as `base` holds: the table is sized from them as it fills.
      this.documentCounts = DocumentCounts.countAll(this.base.count, (count) => {
        for (const { snapshot, deleted } of this.segments) {
          snapshot.keys.eachDocId((docId, slot) => {
            if (deleted?.[slot] !== 1) count(docId);
          });
        }
      });
    }
    return this.documentCounts.documents;
  }

  /**
   * Lets go of the tables of where records are when `leaving` (the segments a commit is about
   * to merge away) hold most of their numbers (`RecordLocations.rebuildsWithout`): a build's
   * commit that folds every flushed segment does not hold a table of ten million ids through
   * its merges (issue 36: the build's peak memory), and the next lookup builds one from the
   * segments then listed, where the old one would have been kept with the merged segment's
   * numbers added. A failed commit only costs a rebuild.
   */
  forgetLocationsLeaving(leaving: readonly StateSegment[]): void {
    const snapshots = leaving.map((segment) => segment.snapshot);
    if (this.locations.rebuildsWithout(snapshots)) this.locations = new RecordLocations();
    if (this.documentLocations?.rebuildsWithout(snapshots) === true) this.documentLocations = undefined;
  }

  /** Counts every record again at the next `documents()` (a commit replaced the segments wholesale). */
  forgetDocumentCounts(): void {
    this.documentCounts = undefined;
  }

  changes(): PendingChanges {
    this.pending ??= new PendingChanges(this.base.count);
    return this.pending;
  }

  /** The slot of `base` holding the live record `id`, or undefined when none does. */
  slotOfId(id: string): number | undefined {
    const found = this.locations.find(id, this.segments, heldInMemory(this.segments));
    if (found === undefined) return undefined;
    this.slotMap ??= new SlotMap(this.segments);
    return this.slotMap.composedSlot(found.part, found.slot);
  }

  /** The slots of `base` of the live records of document `docId`. */
  slotsOfDocument(docId: string): number[] {
    this.documentLocations ??= new RecordLocations("docId");
    this.slotMap ??= new SlotMap(this.segments);
    const slotMap = this.slotMap;
    return this.documentLocations
      .findAll(docId, this.segments, heldInMemory(this.segments))
      .map(({ part, slot }) => slotMap.composedSlot(part, slot));
  }
}

/** Whether the last segment is one a writer holds in memory since the last commit (it changes with every fold). */
function heldInMemory(segments: readonly StateSegment[]): boolean {
  const last = segments.at(-1);
  return last !== undefined && last.entry === undefined && !last.committed;
}

/** The document counts of `base` changed by `pending`: its removed slots out, its added records in. */
function countChanges(counts: DocumentCounts, base: IndexSnapshot, pending: PendingChanges): void {
  if (pending.removedCount > 0) {
    const { removed } = pending;
    for (let slot = 0; slot < removed.length; slot += 1) if (removed[slot] === 1) counts.add(base.keys.docId(slot), -1);
  }
  for (const record of pending.added.values()) counts.add(record.docId, 1);
}
