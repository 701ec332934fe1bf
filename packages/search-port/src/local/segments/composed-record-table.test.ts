import { describe, expect, it } from "vitest";
import type { IndexSnapshot, RecordTable } from "../snapshot/index-snapshot.js";
import { random } from "../test/seeded-random-test-fixtures.js";
import { composedRecordTable } from "./composed-record-table.js";
import type { SegmentPart } from "./segment-part.js";
import { SlotMap } from "./slot-map.js";

/** A part of `count` records: in a file (some of them in memory where `inMemory`) or all in memory, some deleted. */
function part(
  count: number,
  options: { file: boolean; inMemory?: (slot: number) => boolean; deleted?: (slot: number) => boolean },
): SegmentPart {
  const fileSlots = Int32Array.from({ length: count }, (_, slot) => (options.file && !options.inMemory?.(slot) ? slot : -1));
  const records: RecordTable = {
    file: options.file ? ({ count } as RecordTable["file"]) : undefined,
    fileSlots,
    memory: Array.from({ length: count }, (_, slot) =>
      (fileSlots[slot] ?? -1) < 0 ? { content: `m${slot}`, metadataText: "{}" } : undefined,
    ),
  };
  const snapshot = { count, records } as unknown as IndexSnapshot;
  const deleted =
    options.deleted === undefined ? undefined : Uint8Array.from({ length: count }, (_, slot) => (options.deleted?.(slot) ? 1 : 0));
  return { snapshot, deleted };
}

describe("issue 36 item 5: one slot's place in a composed record table, without building the table", () => {
  it("is the entry of the whole table for every slot: parts with deletions, in memory, empty, and slots outside", () => {
    const next = random(3617);
    const slots = new SlotMap([
      part(500, { file: true }),
      part(0, { file: true }),
      part(700, { file: true, deleted: () => next() < 0.3, inMemory: (slot) => slot % 11 === 0 }),
      part(300, { file: false, deleted: (slot) => slot % 4 === 0 }),
      part(400, { file: true, inMemory: (slot) => slot % 5 === 0 }),
    ]);
    const perSlot = composedRecordTable(slots);
    const lookups = Array.from({ length: slots.count + 4 }, (_, index) => index - 2).map((slot) => perSlot.fileSlotOf?.(slot));
    const whole = composedRecordTable(slots).fileSlots;
    const expected = Array.from({ length: slots.count + 4 }, (_, index) => whole[index - 2] ?? -1);
    expect(lookups).toEqual(expected);
    // Both kinds of entry are there: records in a file, and records held in memory.
    expect(expected.filter((fileSlot) => fileSlot >= 0).length).toBeGreaterThan(1000);
    expect(expected.filter((fileSlot) => fileSlot < 0).length).toBeGreaterThan(200);
    // Once built, the table answers.
    expect(perSlot.fileSlots).toEqual(whole);
    expect(perSlot.fileSlotOf?.(1.5)).toBe(-1);
  });
});
