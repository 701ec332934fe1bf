import { describe, expect, it } from "vitest";
import { emptySnapshot } from "./index-snapshot.js";
import { LocalIndexState } from "./local-index-state.js";

function pendingRecord(id: string, docId: string | null) {
  return {
    id,
    docId,
    content: id,
    metadataText: "{}",
    terms: new Uint32Array(),
    frequencies: new Uint16Array(),
    length: 0,
    inverseNorm: 0,
  };
}

describe("LocalIndexState", () => {
  it("starts on an empty snapshot without an index, and keeps one set of pending changes until they are folded", () => {
    const state = new LocalIndexState(undefined, 0);
    expect(state.manifest).toBeUndefined();
    expect(state.base.count).toBe(0);
    const changes = state.changes();
    expect(state.changes()).toBe(changes);
    expect(state.current()).toBe(state.base);
    expect(state.pending).toBe(changes);
  });

  it("folds pending records into the base, and finds their slots by record and document id", () => {
    const state = new LocalIndexState({ manifest: undefined as never, segments: [], snapshot: emptySnapshot() }, 0);
    state.changes().added.set("a#chunk-0", pendingRecord("a#chunk-0", "a"));
    state.changes().added.set("a#chunk-1", pendingRecord("a#chunk-1", "a"));
    state.changes().added.set("loose", pendingRecord("loose", null));
    const folded = state.current();
    expect(folded.count).toBe(3);
    expect(state.pending).toBeUndefined();
    expect(state.base).toBe(folded);
    expect(state.slotOfId("a#chunk-1")).toBe(folded.keys.arrays().ids.indexOf("a#chunk-1"));
    expect(state.slotOfId("a#chunk-2")).toBeUndefined();
    expect(state.slotsOfDocument("a").sort()).toEqual(["a#chunk-0", "a#chunk-1"].map((id) => folded.keys.arrays().ids.indexOf(id)).sort());
    expect(state.slotsOfDocument("loose")).toEqual([]);
  });
});
