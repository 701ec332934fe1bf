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
});
