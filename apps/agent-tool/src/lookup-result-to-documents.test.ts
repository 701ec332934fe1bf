import { Document } from "@langchain/core/documents";
import { createScriptedSearchPort } from "@lookup-knowledge/search-port/testing";
import { describe, expect, it } from "vitest";
import { createKnowledgeRetriever } from "./create-knowledge-retriever.js";
import { lookupResultToDocuments } from "./lookup-result-to-documents.js";
import { hit } from "./test/fixtures.js";

describe("lookupResultToDocuments", () => {
  it("issue 12: leaves out the fields a block has no value for (no title, breadcrumb or score)", async () => {
    const bare = hit("notes", 0, undefined, { content: "A note without a title." });
    const titled = hit("guide", 2, 0.8, { content: "A titled guide.", title: "Guide", breadcrumb: "Guide > Start" });
    const result = await createKnowledgeRetriever({ searchPort: createScriptedSearchPort([[titled, bare]]) }).lookup("note guide");
    const documents = lookupResultToDocuments(result);
    expect(documents.every((document) => document instanceof Document)).toBe(true);
    const byId = new Map(documents.map((document) => [document.id, document]));
    const note = byId.get("notes#chunk-0");
    expect(note?.pageContent).toBe("A note without a title.");
    expect(Object.keys(note?.metadata ?? {}).sort()).toEqual([
      "chunkIndex",
      "docId",
      "evidenceKey",
      "hitReasons",
      "rank",
      "retrievalLayer",
      "source",
    ]);
    expect(note?.metadata).toMatchObject({ evidenceKey: "notes#chunk-0", source: "notes.md", retrievalLayer: "L1" });
    expect(byId.get("guide#chunk-2")?.metadata).toMatchObject({ title: "Guide", breadcrumb: "Guide > Start", score: 0.8, rank: 1 });
  });

  it("issue 12: a result without evidence gives no documents", async () => {
    const result = await createKnowledgeRetriever({ searchPort: createScriptedSearchPort([{ throws: new Error("down") }]) }).lookup(
      "anything",
    );
    expect(result.found).toBe(false);
    expect(lookupResultToDocuments(result)).toEqual([]);
  });
});
