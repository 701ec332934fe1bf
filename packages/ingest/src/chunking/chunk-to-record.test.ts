import { describe, expect, it } from "vitest";
import type { Chunk } from "./chunk.js";
import { chunkToRecord } from "./chunk-to-record.js";

const chunk: Chunk = {
  docId: "plugins/limit-req",
  chunkIndex: 3,
  source: "plugins/limit-req.md",
  title: "Rate Limiting",
  breadcrumb: "Rate Limiting > Attributes",
  category: "plugins",
  keywords: ["limit-req"],
  description: "Limits requests.",
  content: "## Attributes\n\n| a | b |",
  contentHash: "abc",
};

describe("chunkToRecord", () => {
  it("R14: names the record {docId}#chunk-{chunkIndex} and carries identity and metadata", () => {
    expect(chunkToRecord(chunk)).toEqual({
      id: "plugins/limit-req#chunk-3",
      content: "## Attributes\n\n| a | b |",
      metadata: {
        docId: "plugins/limit-req",
        chunkIndex: 3,
        source: "plugins/limit-req.md",
        title: "Rate Limiting",
        breadcrumb: "Rate Limiting > Attributes",
        category: "plugins",
        keywords: ["limit-req"],
        description: "Limits requests.",
        contentHash: "abc",
      },
    });
  });

  it("leaves out category and description when the chunk has none (no undefined values)", () => {
    const { category: _category, description: _description, ...bare } = chunk;
    const record = chunkToRecord(bare);
    expect(Object.keys(record.metadata)).toEqual(["docId", "chunkIndex", "source", "title", "breadcrumb", "keywords", "contentHash"]);
  });
});
