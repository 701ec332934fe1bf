import { describe, expect, it } from "vitest";
import type { SegmentPart } from "../segments/segment-part.js";
import { random } from "../test/seeded-random-test-fixtures.js";
import { hashText } from "./hash-text.js";
import type { IndexSnapshot } from "./index-snapshot.js";
import { RecordLocations } from "./record-locations.js";
import { MemoryKeys } from "./snapshot-keys.js";

/** A segment of only keys (all a lookup reads), with its deleted slots. */
function segment(ids: readonly string[], deleted?: readonly number[]): SegmentPart {
  const snapshot = {
    count: ids.length,
    keys: new MemoryKeys(
      ids,
      ids.map(() => null),
    ),
  } as unknown as IndexSnapshot;
  if (deleted === undefined) return { snapshot };
  const marks = new Uint8Array(ids.length);
  for (const slot of deleted) marks[slot] = 1;
  return { snapshot, deleted: marks };
}

/** A segment of records whose document ids are given (null: none). */
function documentSegment(records: ReadonlyArray<readonly [string, string | null]>): SegmentPart {
  const keys = new MemoryKeys(
    records.map(([id]) => id),
    records.map(([, docId]) => docId),
  );
  return { snapshot: { count: records.length, keys } as unknown as IndexSnapshot };
}

/** The same segment with `slots` deleted too (a fold: a new array, the snapshot kept). */
function withDeleted(part: SegmentPart, slots: readonly number[]): SegmentPart {
  const marks = part.deleted?.slice() ?? new Uint8Array(part.snapshot.count);
  for (const slot of slots) marks[slot] = 1;
  return { snapshot: part.snapshot, deleted: marks };
}

/** The live record `id` by a scan of every segment. */
function scan(segments: readonly SegmentPart[], id: string): { part: number; slot: number } | undefined {
  for (let part = 0; part < segments.length; part += 1) {
    const { snapshot, deleted } = segments[part] as SegmentPart;
    for (let slot = 0; slot < snapshot.count; slot += 1) if (deleted?.[slot] !== 1 && snapshot.keys.id(slot) === id) return { part, slot };
  }
  return undefined;
}

/** Two different ids of the same 32-bit lookup hash (a birthday search). */
function collidingIds(): [string, string] {
  const seen = new Map<number, string>();
  for (let index = 0; ; index += 1) {
    const id = `collide-${index}`;
    const hash = hashText(id, 0);
    const other = seen.get(hash);
    if (other !== undefined) return [other, id];
    seen.set(hash, id);
  }
}

describe("RecordLocations", () => {
  it("issue 36 (writer memory): finds each live record as a scan of every segment does, while segments are added, merged away, deleted from and held in memory", () => {
    const next = random(3633);
    const locations = new RecordLocations();
    let segments: SegmentPart[] = [];
    let fresh = 0;
    const everId: string[] = [];
    for (let step = 0; step < 60; step += 1) {
      const roll = next();
      if (roll < 0.5 || segments.length < 2) {
        // A new segment: new ids, and ids again whose older live copies it deletes (an upsert's replacement).
        const ids = Array.from({ length: 1 + Math.floor(40 * next()) }, () =>
          everId.length > 0 && next() < 0.4 ? (everId[Math.floor(everId.length * next())] as string) : `id-${fresh++}`,
        );
        const unique = [...new Set(ids)];
        segments = segments.map((part) => {
          const gone: number[] = [];
          for (let slot = 0; slot < part.snapshot.count; slot += 1) if (unique.includes(part.snapshot.keys.id(slot))) gone.push(slot);
          return gone.length === 0 ? part : withDeleted(part, gone);
        });
        segments.push(segment(unique));
        everId.push(...unique.filter((id) => !everId.includes(id)));
      } else if (roll < 0.7) {
        // A merge of two neighbours into one segment of their live records.
        const at = Math.floor((segments.length - 1) * next());
        const live = [at, at + 1].flatMap((part) => {
          const { snapshot, deleted } = segments[part] as SegmentPart;
          return Array.from({ length: snapshot.count }, (_, slot) => slot)
            .filter((slot) => deleted?.[slot] !== 1)
            .map((slot) => snapshot.keys.id(slot));
        });
        segments.splice(at, 2, segment(live));
      } else {
        // Deletions (a document removed).
        const part = Math.floor(segments.length * next());
        const target = segments[part] as SegmentPart;
        segments[part] = withDeleted(target, [Math.floor(target.snapshot.count * next())]);
      }
      // A writer never changes a list it passed: it passes a new one.
      segments = [...segments];
      const held = next() < 0.3;
      const asked = [...everId.filter(() => next() < 0.3), "never-upserted"];
      for (const id of asked) expect(locations.find(id, segments, held), `step ${step}, ${id}`).toEqual(scan(segments, id));
    }
  });

  it("issue 36 (writer memory): by document, finds every live record of a document, in written segments and the one held in memory", () => {
    const next = random(3634);
    const locations = new RecordLocations("docId");
    let segments: SegmentPart[] = [];
    for (let step = 0; step < 40; step += 1) {
      const records = Array.from({ length: 1 + Math.floor(30 * next()) }, (_, index): [string, string | null] => [
        `r${step}-${index}`,
        next() < 0.1 ? null : `doc${Math.floor(12 * next())}`,
      ]);
      segments = [...segments, documentSegment(records)];
      if (next() < 0.4) {
        const part = Math.floor(segments.length * next());
        const target = segments[part] as SegmentPart;
        segments[part] = withDeleted(target, [Math.floor(target.snapshot.count * next())]);
      }
      const held = next() < 0.3;
      for (let document = 0; document < 13; document += 1) {
        const docId = `doc${document}`;
        const expected: Array<{ part: number; slot: number }> = [];
        segments.forEach(({ snapshot, deleted }, part) => {
          for (let slot = 0; slot < snapshot.count; slot += 1) {
            if (deleted?.[slot] !== 1 && snapshot.keys.docId(slot) === docId) expected.push({ part, slot });
          }
        });
        const found = locations.findAll(docId, segments, held);
        const order = (left: { part: number; slot: number }, right: { part: number; slot: number }) =>
          left.part - right.part || left.slot - right.slot;
        expect(found.sort(order), `step ${step}, ${docId}`).toEqual(expected);
      }
    }
  });

  it("issue 36 (writer memory): ids that share a lookup hash are told apart by the ids themselves", () => {
    const [first, second] = collidingIds();
    expect(hashText(first, 0)).toBe(hashText(second, 0));
    const locations = new RecordLocations();
    const one = [segment(["a", first, "b"])];
    expect(locations.find(first, one, false)).toEqual({ part: 0, slot: 1 });
    expect(locations.find(second, one, false)).toBeUndefined();
    const two = [...one, segment([second])];
    expect(locations.find(second, two, false)).toEqual({ part: 1, slot: 0 });
    expect(locations.find(first, two, false)).toEqual({ part: 0, slot: 1 });
  });

  it("issue 36 (writer memory): keeps its table across new segments, and builds it again once segments gone outnumber those listed", () => {
    const locations = new RecordLocations();
    const big = (name: string) => segment(Array.from({ length: 40_000 }, (_, index) => `${name}-${index}`));
    const [a, b, c] = [big("a"), big("b"), big("c")];
    expect(locations.find("a-5", [a], false)).toEqual({ part: 0, slot: 5 });
    expect(locations.find("b-5", [a, b], false)).toEqual({ part: 1, slot: 5 });
    expect(locations.size).toBe(80_000);
    // `a` merged away into `c`'s place: its 40,000 numbers stay, passed over.
    expect(locations.find("a-5", [b, c], false)).toBeUndefined();
    expect(locations.find("c-5", [b, c], false)).toEqual({ part: 1, slot: 5 });
    expect(locations.size).toBe(120_000);
    // `b` gone too: 80,000 of 120,000 numbers name segments gone, so the table is built again.
    expect(locations.find("c-7", [c], false)).toEqual({ part: 0, slot: 7 });
    expect(locations.size).toBe(40_000);
  });

  it("issue 36 (build memory): says ahead whether segments leaving would have the table built again, as the next lookup then does", () => {
    const locations = new RecordLocations();
    const big = (name: string) => segment(Array.from({ length: 40_000 }, (_, index) => `${name}-${index}`));
    const [a, b, c] = [big("a"), big("b"), big("c")];
    expect(locations.find("c-1", [a, b, c], false)).toEqual({ part: 2, slot: 1 });
    // One of three segments leaving: 40,000 of 120,000 numbers gone, kept.
    expect(locations.rebuildsWithout([a.snapshot])).toBe(false);
    // Two leaving (a segment not covered counts nothing): 80,000 of 120,000, built again.
    expect(locations.rebuildsWithout([a.snapshot, big("x").snapshot])).toBe(false);
    expect(locations.rebuildsWithout([a.snapshot, b.snapshot])).toBe(true);
    expect(locations.find("c-1", [c], false)).toEqual({ part: 0, slot: 1 });
    expect(locations.size).toBe(40_000);
    // Below 65,536 numbers gone a table is never built again, so nothing is let go.
    const small = new RecordLocations();
    const few = segment(["p", "q"]);
    expect(small.find("p", [few], false)).toEqual({ part: 0, slot: 0 });
    expect(small.rebuildsWithout([few.snapshot])).toBe(false);
  });
});
