import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchSources } from "./sources-api.js";
import { inspectExampleBase, type InspectedBase } from "./test/inspected-base.js";
import { inspectManyDocuments, manyDocumentCount, type ManyDocumentsBase } from "./test/many-documents-base.js";

async function getSources(url: string, q: string): Promise<{ documents: Array<{ docId: string; source: string }>; total: number }> {
  const response = await fetch(new URL(`/api/sources?q=${encodeURIComponent(q)}`, url));
  expect(response.status).toBe(200);
  return (await response.json()) as { documents: Array<{ docId: string; source: string }>; total: number };
}

describe("issue 13 (why-not source search): GET /api/sources counts every match", () => {
  let example: InspectedBase;
  let many: ManyDocumentsBase;
  beforeAll(async () => {
    [example, many] = await Promise.all([inspectExampleBase(), inspectManyDocuments()]);
  }, 120_000);
  afterAll(async () => {
    await example?.close();
    await many?.close();
  });

  it("issue 13: total equals the listed documents when nothing is cut, on the ingested example base", async () => {
    const all = await getSources(example.server.url, "");
    expect(all.documents.length).toBeGreaterThan(10);
    expect(all.total).toBe(all.documents.length);
    const billing = await getSources(example.server.url, "billing/");
    expect(billing.total).toBe(billing.documents.length);
    expect(billing.documents.every((document) => `${document.source} ${document.docId}`.includes("billing/"))).toBe(true);
    expect(billing.total).toBeLessThan(all.total);
    expect(await getSources(example.server.url, "no such document anywhere")).toEqual({ documents: [], total: 0 });
  });

  it("issue 13: over 50 matches the list stops at 50 and total gives how many matched", async () => {
    const all = await getSources(many.server.url, "");
    expect(all.documents).toHaveLength(50);
    expect(all.total).toBe(manyDocumentCount);
    const byTitle = await getSources(many.server.url, "WAREHOUSE NOTE");
    expect([byTitle.documents.length, byTitle.total]).toEqual([50, manyDocumentCount]);
    // A smaller limit cuts the same way.
    const three = await searchSources(many.knowledgeBase, "note", 3);
    expect([three.documents.length, three.total]).toEqual([3, manyDocumentCount]);
  });

  it("issue 13: a document id matches too, and an exact path or id is listed first even past the limit", async () => {
    const byId = await getSources(example.server.url, "billing/refunds");
    expect(byId.documents[0]).toMatchObject({ docId: "billing/refunds", source: "billing/refunds.md" });
    // note-57 sorts last by path; typed exactly, it comes first although 57 notes match "notes/note-5".
    const last = await searchSources(many.knowledgeBase, "notes/note-57.md", 1);
    expect(last.documents.map((document) => document.source)).toEqual(["notes/note-57.md"]);
    const lastById = await searchSources(many.knowledgeBase, "notes/note-57", 1);
    expect(lastById.documents.map((document) => document.docId)).toEqual(["notes/note-57"]);
    expect(lastById.total).toBe(1);
  });
});
