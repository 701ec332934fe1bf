import { describe, expect, it } from "vitest";
import { knowledgeRecordId } from "./knowledge-record.js";

describe("knowledgeRecordId", () => {
  it("R14: names a chunk record {docId}#chunk-{chunkIndex}, the same as its evidence key", () => {
    expect(knowledgeRecordId("plugins/limit-req", 3)).toBe("plugins/limit-req#chunk-3");
  });
});
