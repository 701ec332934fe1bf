import { LookupKnowledgeError, type KnowledgeEntry } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { createL0Index } from "./create-l0-index.js";

function refusal(entries: unknown): LookupKnowledgeError {
  try {
    createL0Index(entries as KnowledgeEntry[]);
  } catch (error) {
    if (LookupKnowledgeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the entries to be refused");
}

describe("knowledge entry validation", () => {
  it("refuses an entry without an id, naming its index and the field", () => {
    const error = refusal([
      { id: "ok", source: "a.md" },
      { source: "b.md", title: "No id" },
    ]);
    expect(error.code).toBe("invalid_knowledge_entry");
    expect(error.message).toBe("Invalid knowledge entry at index 1: id must be a non-empty string (got undefined)");
  });

  it("refuses a blank source, naming the entry's id", () => {
    const error = refusal([{ id: "doc-7", source: "   " }]);
    expect(error.code).toBe("invalid_knowledge_entry");
    expect(error.message).toBe('Invalid knowledge entry at index 0 (id "doc-7"): source must be a non-empty string (got "   ")');
  });

  it("refuses a keyword that is not a string, naming its position", () => {
    const error = refusal([{ id: "doc-1", source: "a.md", keywords: ["fine", 42] }]);
    expect(error.message).toBe('Invalid knowledge entry at index 0 (id "doc-1"): keywords[1] must be a string (got 42)');
  });

  it("refuses optional fields of the wrong type", () => {
    expect(refusal([{ id: "a", source: "a.md", entities: "Kong" }]).message).toMatch(
      /index 0 \(id "a"\): entities must be an array of strings \(got "Kong"\)/,
    );
    expect(refusal([{ id: "a", source: "a.md", domain: 3 }]).message).toMatch(/domain must be a string \(got 3\)/);
    expect(refusal([{ id: "a", source: "a.md", title: ["x"] }]).message).toMatch(/title must be a string/);
  });

  it("refuses an entry that is not an object", () => {
    const error = refusal([{ id: "a", source: "a.md" }, null]);
    expect(error.message).toBe("Invalid knowledge entry at index 1: entry must be an object (got null)");
  });

  it("refuses entries that are not an array", () => {
    expect(refusal({ id: "a", source: "a.md" }).message).toBe("Knowledge entries must be an array, got object");
  });

  it("refuses a duplicate id, naming both entries", () => {
    const error = refusal([
      { id: "doc-1", source: "a.md" },
      { id: "doc-2", source: "b.md" },
      { id: "doc-1", source: "c.md" },
    ]);
    expect(error.code).toBe("invalid_knowledge_entry");
    expect(error.message).toBe(
      'Invalid knowledge entry at index 2 (id "doc-1"): id is a duplicate of the entry at index 0; ids must be unique',
    );
  });

  it("accepts null for absent optional fields and skips blank terms", () => {
    const index = createL0Index([
      { id: "a", source: "a.md", title: null, domain: null, keywords: ["", "  ", "ledger"], entities: null },
    ] as unknown as KnowledgeEntry[]);
    expect(index.match("ledger")).toEqual({
      titles: [],
      keywords: ["ledger"],
      domains: [],
      entities: [],
      entries: [{ id: "a", source: "a.md", matches: [{ field: "keyword", term: "ledger" }] }],
    });
  });

  it("ignores fields it does not know", () => {
    const entry = { id: "a", source: "a.md", keywords: ["ledger"], owner: "finance" };
    const index = createL0Index([entry]);
    expect(index.match("ledger").entries[0]).not.toHaveProperty("owner");
  });
});
