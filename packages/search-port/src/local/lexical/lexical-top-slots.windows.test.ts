import { describe, expect, it } from "vitest";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { lexicalScores } from "./lexical-scores.js";
import { lexicalTopSlots } from "./lexical-top-slots.js";
import { MemoryLexicon } from "./lexicon.js";
import { random } from "../test/seeded-random-test-fixtures.js";
import { MemoryKeys } from "../snapshot/snapshot-keys.js";
import { windowShift } from "./term-score-bounds.js";
import { weighQueryTerms } from "./weigh-query-terms.js";

/** Variations of `randomSnapshot`. */
interface SnapshotShape {
  /** Ids shuffled instead of ascending with the slot. */
  shuffledIds?: boolean;
  /** Every record of length 7, the first three terms in every record with frequency 3: equal scores everywhere. */
  identical?: boolean;
  /** Three postings in ten with a frequency near the 65,535 cap. */
  hugeFrequencies?: boolean;
}

/**
 * An in-memory snapshot of `count` slots over `terms` terms: term t is held by a share of
 * the slots that falls from most of them to a handful, some terms only inside a few ranges
 * of slots (so whole windows lack them), with frequencies of 1 to a few dozen and record
 * lengths from 1 to 400. Every tenth record repeats the one before it under a larger id.
 */
function randomSnapshot(seed: number, count: number, terms: number, shape: SnapshotShape = {}): IndexSnapshot {
  const next = random(seed);
  const lengths = new Uint32Array(count);
  for (let slot = 0; slot < count; slot += 1) lengths[slot] = shape.identical ? 7 : 1 + Math.floor(400 * next() ** 2);
  const names = Array.from({ length: terms }, (_, index) => `t${String(index).padStart(4, "0")}`);
  const lists: Array<{ slots: number[]; frequencies: number[] }> = [];
  for (let term = 0; term < terms; term += 1) {
    const share = shape.identical && term < 3 ? 1 : 0.6 * (1 - term / terms) ** 4 + 0.00005;
    const ranges = term % 3 === 0 ? Array.from({ length: 3 }, () => Math.floor(next() * count)) : undefined;
    const slots: number[] = [];
    const frequencies: number[] = [];
    for (let slot = 0; slot < count; slot += 1) {
      const inRange = ranges === undefined || ranges.some((start) => slot >= start && slot < start + 3000);
      const copy = slot % 10 === 9;
      const holds = copy ? slots[slots.length - 1] === slot - 1 : inRange && next() < share * (ranges === undefined ? 1 : 6);
      if (!holds) continue;
      slots.push(slot);
      const frequency = shape.identical
        ? 3
        : shape.hugeFrequencies && next() < 0.3
          ? 65535 - Math.floor(100 * next())
          : 1 + Math.floor(30 * next() ** 6);
      frequencies.push(copy ? (frequencies[frequencies.length - 1] as number) : frequency);
    }
    lists.push({ slots, frequencies });
  }
  const termStarts = new Uint32Array(terms + 1);
  lists.forEach((list, term) => {
    termStarts[term + 1] = (termStarts[term] as number) + list.slots.length;
  });
  for (let slot = 9; slot < count; slot += 10) lengths[slot] = lengths[slot - 1] as number;
  const ids = Array.from({ length: count }, (_, slot) => `r${String(slot).padStart(6, "0")}`);
  if (shape.shuffledIds) {
    // Ids in no particular slot order: ties between windows must still go to the smaller id.
    for (let index = ids.length - 1; index > 0; index -= 1) {
      const other = Math.floor(next() * (index + 1));
      [ids[index], ids[other]] = [ids[other] as string, ids[index] as string];
    }
  }
  return {
    count,
    keys: new MemoryKeys(ids, new Array(count).fill(null)),
    lexicon: new MemoryLexicon({
      terms: names,
      termStarts,
      postingSlots: Uint32Array.from(lists.flatMap((list) => list.slots)),
      postingFrequencies: Uint16Array.from(lists.flatMap((list) => list.frequencies)),
      lengths,
      totalLength: lengths.reduce((sum, length) => sum + length, 0),
    }),
    vectors: undefined,
    records: { file: undefined, fileSlots: new Int32Array(0), memory: [] },
  };
}

/** The best `limit` slots of the full pass: every slot any term reaches, by score then id. */
function fullPass(snapshot: IndexSnapshot, terms: readonly string[], limit: number) {
  const id = (slot: number) => snapshot.keys.id(slot);
  const { matched } = weighQueryTerms(snapshot, terms);
  const scored = lexicalScores(snapshot, matched);
  try {
    return Array.from(scored.touched.subarray(0, scored.touchedCount), (slot) => ({ slot, score: scored.scores[slot] as number }))
      .sort((left, right) => right.score - left.score || (id(left.slot) < id(right.slot) ? -1 : 1))
      .slice(0, limit);
  } finally {
    scored.release();
  }
}

describe("issue 14: the lexical search by windows of slots with block bounds", () => {
  it("returns exactly the slots, scores and order of the full pass over many windows", () => {
    const count = 11 * 2 ** windowShift + 123;
    const snapshot = randomSnapshot(1414, count, 300);
    const next = random(99);
    let compared = 0;
    for (let query = 0; query < 400; query += 1) {
      // Mostly rarer terms, some common ones, now and then a term repeated.
      const words = Array.from(
        { length: 1 + Math.floor(next() * 16) },
        () => `t${String(Math.floor(300 * next() ** 0.7)).padStart(4, "0")}`,
      );
      if (query % 9 === 0) words.push(words[0] as string);
      const full = fullPass(snapshot, words, 60);
      for (const limit of [1, 5, 10, 60]) {
        const { matched } = weighQueryTerms(snapshot, words);
        const skipping = lexicalTopSlots(snapshot, matched, limit)
          .sorted()
          .map(({ slot, score }) => ({ slot, score }));
        expect(skipping, `${words.join(" ")} (limit ${limit})`).toEqual(full.slice(0, limit));
        compared += skipping.length;
      }
    }
    expect(compared).toBeGreaterThan(20_000);
  });

  it("stays exact with ids out of slot order, equal scores across windows, huge frequencies and sizes around a window", () => {
    const shapes: SnapshotShape[] = [
      { shuffledIds: true },
      { identical: true, shuffledIds: true },
      { hugeFrequencies: true, shuffledIds: true },
    ];
    const next = random(7);
    let compared = 0;
    for (const count of [0, 1, 2, 4095, 4096, 4097, 3 * 2 ** windowShift + 1]) {
      for (const [index, shape] of shapes.entries()) {
        const snapshot = randomSnapshot(count * 3 + index, count, 40, shape);
        for (let query = 0; query < 40; query += 1) {
          const words = Array.from(
            { length: 1 + Math.floor(next() * (query % 5 === 0 ? 25 : 6)) },
            () => `t${String(Math.floor(40 * next() ** 1.5)).padStart(4, "0")}`,
          );
          if (query % 7 === 0) words.push(words[0] as string, "missing");
          const full = fullPass(snapshot, words, Math.max(count, 1));
          for (const limit of [1, 2, 5, 37]) {
            const { matched } = weighQueryTerms(snapshot, words);
            const skipping = lexicalTopSlots(snapshot, matched, limit)
              .sorted()
              .map(({ slot, score }) => ({ slot, score }));
            expect(skipping, `${count} records, ${JSON.stringify(shape)}: ${words.join(" ")} (limit ${limit})`).toEqual(
              full.slice(0, limit),
            );
            compared += skipping.length;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });
});
