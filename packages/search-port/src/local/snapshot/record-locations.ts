import type { SegmentPart } from "../segments/segment-part.js";
import { hashText } from "./hash-text.js";
import { HashSlots } from "./hash-slots.js";
import type { IndexSnapshot } from "./index-snapshot.js";

/** A segment whose record ids the table holds: numbers `base` .. `base + count - 1` are its slots. */
interface Covered {
  /** Undefined once the segment is gone from the list (merged away, or replaced). */
  snapshot: IndexSnapshot | undefined;
  base: number;
  count: number;
  /** Its index in the segments last looked up in, or -1 once gone. */
  part: number;
}

/** Which key a `RecordLocations` looks records up by. */
export type LookupKey = "id" | "docId";

/** A live record's segment (index in the list looked up in) and slot there. */
export interface RecordLocation {
  part: number;
  slot: number;
}

/**
 * Where each record id (or, `key` "docId", each document's records) is among a writer's segments, kept from one lookup to the next as
 * segments come and go (a flush, a fold, a commit's merges), so an upsert does not gather
 * every id of the index again after each of them. Each segment's ids are read once, from its
 * keys (its keys file for a written one, a window at a time), into one table of 32-bit hashes
 * (`HashSlots`) of numbers that name a segment and a slot; a lookup reads the id of each
 * record filed under its hash (a keys file read, or memory) and takes the live one that
 * matches, so the answer is exact. A segment that leaves the list leaves its numbers behind,
 * passed over, until they outnumber the others and the table is built again. The last
 * segment, when a writer holds it in memory since the last commit, changes with every fold:
 * its ids go into a `Map` of their own instead (at most a flush's worth).
 */
export class RecordLocations {
  private table = new HashSlots();
  private covered: Covered[] = [];
  private readonly bySnapshot = new Map<IndexSnapshot, Covered>();
  /** Numbers given out so far, and how many of them name a segment gone from the list. */
  private given = 0;
  private gone = 0;
  private syncedWith: readonly SegmentPart[] | undefined;
  private held: { snapshot: IndexSnapshot; slots: Map<string, number[]> } | undefined;

  constructor(private readonly key: LookupKey = "id") {}

  /**
   * The live record `id` among `segments` (in memory: `heldInMemory`, the last one), or
   * undefined when none holds it. `segments` is the list last passed or a newer one, never
   * changed once passed (a writer replaces its list; it is compared by identity), and a
   * segment's snapshot never changes (its deletions are only added to).
   */
  find(id: string, segments: readonly SegmentPart[], heldInMemory: boolean): RecordLocation | undefined {
    return this.visit(id, segments, heldInMemory, true)[0];
  }

  /** Every live record whose key is `key` (a document's records, for `key` "docId"), segment by segment in no set order. */
  findAll(key: string, segments: readonly SegmentPart[], heldInMemory: boolean): RecordLocation[] {
    return this.visit(key, segments, heldInMemory, false);
  }

  private visit(key: string, segments: readonly SegmentPart[], heldInMemory: boolean, first: boolean): RecordLocation[] {
    this.sync(segments, heldInMemory);
    const found: RecordLocation[] = [];
    if (heldInMemory) {
      const part = segments.length - 1;
      const last = segments[part] as SegmentPart;
      if (this.held?.snapshot !== last.snapshot) this.held = { snapshot: last.snapshot, slots: this.slotsByKey(last.snapshot) };
      for (const slot of this.held.slots.get(key) ?? []) {
        if (last.deleted?.[slot] === 1) continue;
        found.push({ part, slot });
        if (first) return found;
      }
    }
    this.table.find(hashText(key, 0), (value) => {
      const covered = this.coveredOf(value);
      if (covered.part < 0 || covered.snapshot === undefined) return false;
      const slot = value - covered.base;
      if ((segments[covered.part] as SegmentPart).deleted?.[slot] === 1) return false;
      const keys = covered.snapshot.keys;
      if ((this.key === "id" ? keys.id(slot) : keys.docId(slot)) !== key) return false;
      found.push({ part: covered.part, slot });
      return first;
    });
    return found;
  }

  /** Numbers the table holds (live records and those passed over), for tests and measurements. */
  get size(): number {
    return this.table.size;
  }

  /** Covers every segment of `segments` not covered yet (but a last one held in memory), and marks those gone. */
  private sync(segments: readonly SegmentPart[], heldInMemory: boolean): void {
    if (segments === this.syncedWith) return;
    this.syncedWith = segments;
    const end = heldInMemory ? segments.length - 1 : segments.length;
    const listed = new Set<Covered>();
    for (let part = 0; part < end; part += 1) {
      const segment = segments[part] as SegmentPart;
      const covered = this.bySnapshot.get(segment.snapshot) ?? this.cover(segment);
      covered.part = part;
      listed.add(covered);
    }
    for (const covered of this.covered) {
      if (listed.has(covered) || covered.snapshot === undefined) continue;
      this.bySnapshot.delete(covered.snapshot);
      covered.snapshot = undefined;
      covered.part = -1;
      this.gone += covered.count;
    }
    // Numbers of segments gone are passed over at each lookup that meets them: once they
    // outnumber the rest, the table is built again from the segments listed.
    if (rebuildsAt(this.gone, this.given)) this.rebuild(segments, end);
  }

  /**
   * Whether the numbers of `leaving` (the segments a commit's merges take out of the list)
   * with those already gone would outnumber the rest, the rule `sync` builds the table again
   * by: then most of it would be numbers passed over, and it may be let go before the merges
   * run. Not a forecast of the next lookup, which covers the merged segments first (their
   * numbers count among the rest: a build's final merge of every segment leaves half the
   * numbers gone, not more, and the table would be kept at twice its size).
   */
  rebuildsWithout(leaving: Iterable<IndexSnapshot>): boolean {
    let gone = this.gone;
    for (const snapshot of leaving) gone += this.bySnapshot.get(snapshot)?.count ?? 0;
    return rebuildsAt(gone, this.given);
  }

  private rebuild(segments: readonly SegmentPart[], end: number): void {
    this.table = new HashSlots();
    this.covered = [];
    this.bySnapshot.clear();
    this.given = 0;
    this.gone = 0;
    for (let part = 0; part < end; part += 1) this.cover(segments[part] as SegmentPart).part = part;
  }

  /** Files the ids of `segment`'s records (but those it marks deleted) under the next free numbers. */
  private cover(segment: SegmentPart): Covered {
    const { snapshot, deleted } = segment;
    if (this.given + snapshot.count >= 0xffffffff) throw new RangeError("the record ids a writer looks up exceed 2^32 - 1 records");
    const covered: Covered = { snapshot, base: this.given, count: snapshot.count, part: -1 };
    const { base } = covered;
    this.eachKey(snapshot, (key, slot) => {
      if (deleted?.[slot] !== 1) this.table.add(hashText(key, 0), base + slot);
    });
    this.given += snapshot.count;
    this.covered.push(covered);
    this.bySnapshot.set(snapshot, covered);
    return covered;
  }

  /** The covered segment that number `value` names (the last whose base is at most it). */
  private coveredOf(value: number): Covered {
    const { covered } = this;
    let low = 0;
    let high = covered.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((covered[middle] as Covered).base <= value) low = middle;
      else high = middle - 1;
    }
    return covered[low] as Covered;
  }

  /** Each slot's key (records without a document have no document key). */
  private eachKey(snapshot: IndexSnapshot, visit: (key: string, slot: number) => void): void {
    if (this.key === "id") snapshot.keys.eachId(visit);
    else
      snapshot.keys.eachDocId((docId, slot) => {
        if (docId !== null) visit(docId, slot);
      });
  }

  private slotsByKey(snapshot: IndexSnapshot): Map<string, number[]> {
    const slots = new Map<string, number[]>();
    this.eachKey(snapshot, (key, slot) => {
      const known = slots.get(key);
      if (known === undefined) slots.set(key, [slot]);
      else known.push(slot);
    });
    return slots;
  }
}

/** Whether a table of `given` numbers, `gone` of them naming segments gone, is built again (they outnumber the rest). */
function rebuildsAt(gone: number, given: number): boolean {
  return gone > 65_536 && 2 * gone > given;
}
