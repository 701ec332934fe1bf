import type { SearchHit } from "@lookup-knowledge/core";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { KnowledgeSearchPort, SearchRequest } from "./index.js";
import { createInMemorySearchPort, createScriptedSearchPort } from "./testing/index.js";

describe("KnowledgeSearchPort", () => {
  it("R13: is the one boundary for semantic fetch: search(request) resolves to hits", async () => {
    expectTypeOf<KnowledgeSearchPort["search"]>().toEqualTypeOf<(request: SearchRequest) => Promise<SearchHit[]>>();
    expectTypeOf<SearchRequest>().toEqualTypeOf<{
      query: string;
      topK: number;
      filter?: SearchRequest["filter"];
      scopeFilter?: SearchRequest["filter"];
      signal?: AbortSignal;
    }>();

    const ports: KnowledgeSearchPort[] = [
      createScriptedSearchPort([[{ id: "v1", content: "Refunds take 5 days.", metadata: {}, score: 0.9 }]]),
      createInMemorySearchPort([{ id: "v1", content: "Refunds take 5 days.", metadata: {} }]),
    ];
    for (const port of ports) {
      const hits = await port.search({ query: "refunds", topK: 3 });
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatchObject({ id: "v1", content: "Refunds take 5 days.", metadata: {} });
    }
  });

  it("R12: ports that do not judge answerability ignore scopeFilter; the scripted port records a deep copy of it", async () => {
    const memory = createInMemorySearchPort([{ id: "v1", content: "Refunds take 5 days.", metadata: { tenant: "acme" } }]);
    const plain = await memory.search({ query: "refunds", topK: 3, filter: { tenant: "acme" } });
    const scoped = await memory.search({ query: "refunds", topK: 3, filter: { tenant: "acme" }, scopeFilter: { tenant: "acme" } });
    expect(scoped).toEqual(plain);
    const scripted = createScriptedSearchPort([[]]);
    const scopeFilter = { tenant: "acme" };
    await scripted.search({ query: "refunds", topK: 3, filter: scopeFilter, scopeFilter });
    scopeFilter.tenant = "globex";
    expect(scripted.requests[0]?.scopeFilter).toEqual({ tenant: "acme" });
  });
});
