import { describe, expect, it } from "vitest";
import { evidenceKey, readChunkIndex, readDocId } from "./evidence-key.js";

describe("evidence identity", () => {
  it("R14: builds {docId}#chunk-{chunkIndex} when both are known", () => {
    expect(evidenceKey({ docId: "docA", chunkIndex: 2 })).toBe("docA#chunk-2");
    expect(evidenceKey({ docId: "docA", chunkIndex: 0, vectorId: "v1" })).toBe("docA#chunk-0");
  });

  it("R14: falls back to vector:{id} without a chunk index", () => {
    expect(evidenceKey({ docId: "docA", vectorId: "abc" })).toBe("vector:abc");
    expect(evidenceKey({ docId: "docA" })).toBeUndefined();
  });

  it("R14: reads docId or doc_id and chunkIndex or chunk_index", () => {
    expect(readDocId({ docId: "a" })).toBe("a");
    expect(readDocId({ doc_id: "b" })).toBe("b");
    expect(readDocId({ doc_id: 7 })).toBe("7");
    expect(readDocId({ docId: "  " })).toBeUndefined();
    expect(readChunkIndex({ chunkIndex: 3 })).toBe(3);
    expect(readChunkIndex({ chunk_index: 4 })).toBe(4);
    expect(readChunkIndex({ chunk_index: "5" })).toBe(5);
    expect(readChunkIndex({ chunkIndex: -1 })).toBeUndefined();
    expect(readChunkIndex({ chunkIndex: 1.5 })).toBeUndefined();
    expect(readChunkIndex({ chunkIndex: "x" })).toBeUndefined();
  });
});
