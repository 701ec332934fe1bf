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
  private slotOfId: Map<string, number> | undefined;
  private slotsOfDocument: Map<string, number[]> | undefined;
  /** Live records per document id, and records without one (each its own document): kept up to date once counted. */
  private documentCounts: { byDocument: Map<string, number>; loose: number } | undefined;

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
    this.slotOfId = undefined;
    this.slotsOfDocument = undefined;
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
    this.base = composeSnapshot(this.segments);
    this.slotOfId = undefined;
    this.slotsOfDocument = undefined;
  }

  /**
   * Distinct documents among the live records (a record without a document id is one of its
   * own), as searches see them now: counted once from every record id, then kept up to date
   * by each fold, so a commit of a few changes does not count a million records again.
   */
  documents(): number {
    const current = this.current();
    if (this.documentCounts === undefined) {
      const counts = { byDocument: new Map<string, number>(), loose: 0 };
      for (const docId of current.keys.arrays().docIds) add(counts, docId, 1);
      this.documentCounts = counts;
    }
    return this.documentCounts.byDocument.size + this.documentCounts.loose;
  }

  /** Counts every record again at the next `documents()` (a commit replaced the segments wholesale). */
  forgetDocumentCounts(): void {
    this.documentCounts = undefined;
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

function add(counts: { byDocument: Map<string, number>; loose: number }, docId: string | null, by: 1 | -1): void {
  if (docId === null) {
    counts.loose += by;
    return;
  }
  const left = (counts.byDocument.get(docId) ?? 0) + by;
  if (left > 0) counts.byDocument.set(docId, left);
  else counts.byDocument.delete(docId);
}

/** The document counts of `base` changed by `pending`: its removed slots out, its added records in. */
function countChanges(counts: { byDocument: Map<string, number>; loose: number }, base: IndexSnapshot, pending: PendingChanges): void {
  if (pending.removedCount > 0) {
    const { removed } = pending;
    for (let slot = 0; slot < removed.length; slot += 1) if (removed[slot] === 1) add(counts, base.keys.docId(slot), -1);
  }
  for (const record of pending.added.values()) add(counts, record.docId, 1);
}
