import { describe, expect, it } from "vitest";
import { random } from "../test/seeded-random-test-fixtures.js";
import { DocumentCounts } from "./document-counts.js";

describe("DocumentCounts", () => {
  it("issue 36 (writer memory): counts distinct documents as a map of counts does, through growths and removals that move later slots back", () => {
    const next = random(3632);
    const counts = new DocumentCounts();
    const model = new Map<string, number>();
    let loose = 0;
    for (let step = 0; step < 60_000; step += 1) {
      const roll = next();
      // Ids from a range that fills and empties the table, so runs form and removals shift them.
      const docId = roll < 0.05 ? null : `doc-${Math.floor(next() * (step < 30_000 ? 4_000 : 400))}`;
      const by = next() < (step < 30_000 ? 0.7 : 0.3) ? 1 : -1;
      counts.add(docId, by);
      if (docId === null) loose = Math.max(0, loose + by);
      else {
        const left = (model.get(docId) ?? 0) + by;
        if (left > 0) model.set(docId, left);
        else model.delete(docId);
      }
      if (step % 997 === 0) expect(counts.documents, `step ${step}`).toBe(model.size + loose);
    }
    expect(counts.documents).toBe(model.size + loose);
    // Every document counted out to zero is gone, and the rest are still found.
    for (const [docId, count] of model) for (let left = count; left > 0; left -= 1) counts.add(docId, -1);
    for (let left = loose; left > 0; left -= 1) counts.add(null, -1);
    expect(counts.documents).toBe(0);
  });

  it("issue 36 (writer memory): a record counted out of a document never counted in changes nothing", () => {
    const counts = new DocumentCounts();
    counts.add("a", 1);
    counts.add("b", -1);
    counts.add(null, -1);
    expect(counts.documents).toBe(1);
    counts.add("a", 1);
    counts.add("a", -1);
    expect(counts.documents).toBe(1);
    counts.add("a", -1);
    expect(counts.documents).toBe(0);
  });

  it("issue 36 (writer memory): a document of more records than a slot's byte counts holds its count, in and out", () => {
    const counts = new DocumentCounts();
    for (let record = 0; record < 1_000; record += 1) counts.add("big", 1);
    counts.add("small", 1);
    expect(counts.documents).toBe(2);
    for (let record = 0; record < 999; record += 1) counts.add("big", -1);
    expect(counts.documents).toBe(2);
    counts.add("big", -1);
    expect(counts.documents).toBe(1);
    // Across the threshold both ways, through growths that move the slot.
    for (let round = 0; round < 3; round += 1) {
      for (let record = 0; record < 260; record += 1) counts.add("edge", 1);
      for (let other = 0; other < 2_000; other += 1) counts.add(`other-${round}-${other}`, 1);
      for (let record = 0; record < 259; record += 1) counts.add("edge", -1);
      expect(counts.documents).toBe(2 + 2_000 * (round + 1));
      counts.add("edge", -1);
      expect(counts.documents).toBe(1 + 2_000 * (round + 1));
    }
  });

  it("issue 36 (build memory): a first count sizes the table from the share of distinct documents it sees, not by doubling", () => {
    // One record per document, as a bench's chunks each are: the table grows once, to fit them at three quarters full.
    const records = 200_000;
    const distinct = DocumentCounts.countAll(records, (count) => {
      for (let record = 0; record < records; record += 1) count(`doc-${record}`);
    });
    expect(distinct.documents).toBe(records);
    // Doubling from 1,024 slots ends at 2^19 slots (9 bytes each); sized from the share, at 4/3 x 1.05 of the records.
    expect(distinct.bytes).toBeLessThan(9 * 2 ** 19 * 0.6);
    expect(distinct.bytes).toBeGreaterThan(9 * records * (4 / 3));
    // Ten records per document: sized for about the documents, not the records.
    const shared = DocumentCounts.countAll(records, (count) => {
      for (let record = 0; record < records; record += 1) count(`doc-${Math.floor(record / 10)}`);
      count(null);
    });
    expect(shared.documents).toBe(records / 10 + 1);
    expect(shared.bytes).toBeLessThan(9 * (records / 10) * 2);
    // A count that gives more records than it said still counts them all, doubling past the bound.
    const more = DocumentCounts.countAll(1_000, (count) => {
      for (let record = 0; record < 50_000; record += 1) count(`doc-${record}`);
    });
    expect(more.documents).toBe(50_000);
    // Counted after the first count, the table doubles as before, and every key stays found.
    for (let record = 0; record < 100_000; record += 1) more.add(`late-${record}`, 1);
    for (let record = 0; record < 50_000; record += 1) more.add(`doc-${record}`, -1);
    expect(more.documents).toBe(100_000);
    for (let record = 0; record < 100_000; record += 1) more.add(`late-${record}`, -1);
    expect(more.documents).toBe(0);
  });
});
