import { lexicalTerms } from "@lookup-knowledge/text";
import { describe, expect, it } from "vitest";
import { PendingChanges } from "../snapshot/pending-changes.js";
import { LocalIndexState } from "../snapshot/local-index-state.js";
import { removeDocuments } from "./remove-documents.js";
import { stageUpserts } from "./stage-upserts.js";
import type { UpsertEntry } from "./read-upsert-batch.js";

function entry(id: string, docId: string | null, text: string): UpsertEntry {
  return { record: { id, content: text, metadata: {} }, docId, text, metadataText: "{}" };
}

/** The bytes of every block the pending records' arrays are views of, each block once. */
function heldBytes(state: LocalIndexState): number {
  const buffers = new Set<ArrayBufferLike>();
  for (const record of state.changes().added.values()) {
    buffers.add(record.terms.buffer);
    buffers.add(record.frequencies.buffer);
    if (record.codes !== undefined) buffers.add(record.codes.buffer);
  }
  let bytes = 0;
  for (const buffer of buffers) bytes += buffer.byteLength;
  return bytes;
}

/** What those arrays hold themselves. */
function ownBytes(state: LocalIndexState): number {
  let bytes = 0;
  for (const record of state.changes().added.values())
    bytes += record.terms.byteLength + record.frequencies.byteLength + (record.codes?.byteLength ?? 0);
  return bytes;
}

describe("stageUpserts", () => {
  it("issue 36 item 3 review: records replaced or deleted while pending do not keep the shared blocks of the records still pending (memory follows the pending records, not every record staged since the fold)", () => {
    const state = new LocalIndexState(undefined, 8);
    // A record replaced again and again (and a document deleted and added again), with one new small record staged between turns.
    const hot = Array.from({ length: 3000 }, (_, index) => `word${index}`).join(" ");
    for (let turn = 0; turn < 200; turn += 1) {
      const changes = state.changes();
      stageUpserts(state, [entry("hot", "hot", hot)], [changes.analyse(hot)], [new Float32Array(8).fill(1)]);
      removeDocuments(state, new Set(["gone"]));
      stageUpserts(state, [entry("gone", "gone", hot)], [changes.analyse(hot)], [new Float32Array(8).fill(1)]);
      stageUpserts(state, [entry(`new-${turn}`, null, `small ${turn}`)], [changes.analyse(`small ${turn}`)], [new Float32Array(8).fill(1)]);
    }
    expect(state.changes().added.size).toBe(202);
    // The live arrays hold some 50 KB; the blocks they are views of may be a few times that, not one block a record.
    expect(ownBytes(state)).toBeLessThan(100_000);
    expect(heldBytes(state)).toBeLessThan(4 * ownBytes(state) + 3 * (1 << 18) + 2 * (1 << 18) + (1 << 17));
    // Each pending record still holds its own terms, frequencies and codes.
    const terms = state.changes().dictionaryTerms;
    for (const record of state.changes().added.values()) {
      const expected = new PendingChanges(0);
      const counted = expected.countTerms(lexicalTerms(record.content));
      expect(
        [...record.terms].map((id) => terms[id]),
        record.id,
      ).toEqual([...counted.terms].map((id) => expected.dictionaryTerms[id]));
      expect([...record.frequencies], record.id).toEqual([...counted.frequencies]);
      expect([...(record.codes ?? [])].slice(0, 8), record.id).toEqual(new Array(8).fill(127));
    }
  });
});
