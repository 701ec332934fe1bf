import { InvalidFilterError } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { andFilters } from "../and-filters.js";
import { equalsFilter } from "../equals-filter.js";
import { createInMemorySearchPort } from "./create-in-memory-search-port.js";
import type { InMemoryRecord } from "./in-memory-record.js";

const records: InMemoryRecord[] = [
  {
    id: "refunds#0",
    content: "Refunds are paid back to the original card within 5 business days.",
    metadata: { docId: "refunds", chunkIndex: 0, title: "Refund policy", category: "billing", tenant: "acme" },
  },
  {
    id: "refunds#1",
    content: "A refund for a cancelled order needs the order number.",
    metadata: { docId: "refunds", chunkIndex: 1, title: "Refund policy", category: "billing", tenant: "acme" },
  },
  {
    id: "shipping#0",
    content: "Parcels ship from the Rotterdam warehouse every weekday.",
    metadata: { doc_id: "shipping", chunk_index: 0, title: "Shipping", category: "logistics", tenant: "acme" },
  },
  {
    id: "other-tenant#0",
    content: "Refunds for globex customers go through their account manager.",
    metadata: { docId: "globex-refunds", chunkIndex: 0, category: "billing", tenant: "globex" },
  },
  {
    id: "ja#0",
    content: "返金は元のカードに5営業日以内に返金されます。",
    metadata: { docId: "ja-refunds", chunkIndex: 0, title: "返金ポリシー", category: "billing", tenant: "acme" },
  },
];

describe("createInMemorySearchPort", () => {
  it("ranks the records that share the most with the query first", async () => {
    const port = createInMemorySearchPort(records);
    const hits = await port.search({ query: "How are refunds paid back to my card?", topK: 10 });
    expect(hits[0]?.id).toBe("refunds#0");
    expect(hits.map((hit) => hit.id)).not.toContain("shipping#0");
    expect(hits.map((hit) => hit.id)).toContain("refunds#1");
  });

  it("gives scores in 0..1, best first, ties broken by id", async () => {
    const port = createInMemorySearchPort([
      { id: "b", content: "refund window", metadata: {} },
      { id: "a", content: "refund window", metadata: {} },
      { id: "c", content: "refund window and many other unrelated words here", metadata: {} },
    ]);
    const hits = await port.search({ query: "refund window", topK: 10 });
    expect(hits.map((hit) => hit.id)).toEqual(["a", "b", "c"]);
    expect(hits[0]?.score).toBeCloseTo(1, 10);
    for (const hit of hits) {
      expect(hit.score).toBeGreaterThan(0);
      expect(hit.score).toBeLessThanOrEqual(1);
    }
    const scores = hits.map((hit) => hit.score ?? 0);
    expect(scores).toEqual([...scores].sort((left, right) => right - left));
  });

  it("stems a trailing s and ignores stop words and case", async () => {
    const port = createInMemorySearchPort([{ id: "p", content: "The POLICIES on REFUNDS", metadata: {} }]);
    const hits = await port.search({ query: "the refund policy", topK: 1 });
    expect(hits[0]?.score).toBeCloseTo(1, 10);
  });

  it("matches a CJK query against a CJK record by character bigrams", async () => {
    const port = createInMemorySearchPort(records);
    const hits = await port.search({ query: "返金について", topK: 3 });
    expect(hits[0]?.id).toBe("ja#0");
    expect(hits[0]?.score).toBeGreaterThan(0);
  });

  it("applies the filter with matchesFilter semantics", async () => {
    const port = createInMemorySearchPort(records);
    const filter = andFilters({ tenant: { $eq: "acme" } }, equalsFilter("category", "billing"));
    const hits = await port.search({ query: "refunds", topK: 10, filter });
    expect(hits.map((hit) => hit.id).sort()).toEqual(["refunds#0", "refunds#1"]);
    for (const hit of hits) expect(hit.metadata).toMatchObject({ tenant: "acme", category: "billing" });
  });

  it("rejects an invalid filter with InvalidFilterError", async () => {
    const port = createInMemorySearchPort(records);
    await expect(port.search({ query: "refunds", topK: 3, filter: { tenant: { $regex: "a" } as never } })).rejects.toSatisfy(
      (error: unknown) => InvalidFilterError.isInstance(error) && error.path === "tenant.$regex",
    );
  });

  it("returns at most topK hits", async () => {
    const port = createInMemorySearchPort(records);
    expect(await port.search({ query: "refunds", topK: 2 })).toHaveLength(2);
    expect(await port.search({ query: "refunds", topK: 0 })).toEqual([]);
  });

  it("returns nothing for a query that shares no term, or only stop words", async () => {
    const port = createInMemorySearchPort(records);
    expect(await port.search({ query: "quantum chromodynamics", topK: 5 })).toEqual([]);
    expect(await port.search({ query: "the of and", topK: 5 })).toEqual([]);
  });

  it("rejects with the reason of an aborted signal", async () => {
    const port = createInMemorySearchPort(records);
    const reason = new Error("cancelled");
    await expect(port.search({ query: "refunds", topK: 3, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it("upserts by id, deletes by docId or doc_id, and reports its size", async () => {
    const port = createInMemorySearchPort(records);
    expect(port.size).toBe(5);
    port.upsert([{ id: "refunds#0", content: "Refunds now take 10 days.", metadata: { docId: "refunds", chunkIndex: 0 } }]);
    expect(port.size).toBe(5);
    const [first] = await port.search({ query: "refunds take 10 days", topK: 1 });
    expect(first?.content).toBe("Refunds now take 10 days.");

    expect(port.deleteByDocId("refunds")).toBe(2);
    expect(port.deleteByDocId("shipping")).toBe(1);
    expect(port.deleteByDocId("unknown")).toBe(0);
    expect(port.size).toBe(2);
    const ids = (await port.search({ query: "refunds", topK: 10 })).map((hit) => hit.id);
    expect(ids).not.toContain("refunds#0");
  });

  it("keeps its own copies of records and hands out copies of metadata", async () => {
    const record: InMemoryRecord = { id: "x", content: "refund", metadata: { tenant: "acme" } };
    const port = createInMemorySearchPort([record]);
    record.metadata["tenant"] = "changed";
    const [hit] = await port.search({ query: "refund", topK: 1, filter: { tenant: "acme" } });
    expect(hit?.metadata).toEqual({ tenant: "acme" });
    if (hit) hit.metadata["tenant"] = "mutated";
    const [again] = await port.search({ query: "refund", topK: 1 });
    expect(again?.metadata).toEqual({ tenant: "acme" });
  });
});
