import {
  ConfigurationError,
  InvalidFilterError,
  InvalidQueryError,
  type LookupResult,
  type MetadataFilter,
  type SearchHit,
} from "@lookup-knowledge/core";
import { createL0Index, type L0Index } from "@lookup-knowledge/l0-hints";
import type { KnowledgeSearchPort, SearchRequest } from "@lookup-knowledge/search-port";
import { createScriptedSearchPort } from "@lookup-knowledge/search-port/testing";
import type { ToolInvocationRecord, TraceStore } from "@lookup-knowledge/trace-store";
import { createInMemoryTraceStore } from "@lookup-knowledge/trace-store/testing";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createKnowledgeRetriever } from "./create-knowledge-retriever.js";
import { billingEntries, hit } from "./test/fixtures.js";

const l0Index = createL0Index(billingEntries);
const billingFilter = { category: { $eq: "billing" } };

function found(result: LookupResult) {
  if (!result.found) throw new Error(`expected evidence, got: ${result.message}`);
  return result;
}

describe("createKnowledgeRetriever", () => {
  describe("pipeline (R1-R3)", () => {
    it("R1: runs transformation, L0 hints, L1, post-processing, assembly and trace recording in that order", async () => {
      const events: string[] = [];
      const recordingIndex: L0Index = {
        size: l0Index.size,
        match(query) {
          events.push(`l0:${query}`);
          return l0Index.match(query);
        },
      };
      const port: KnowledgeSearchPort = {
        async search(request) {
          events.push(`l1:${request.query}`);
          return [hit("billing/refunds", 0, 0.9, { category: "billing", title: "Refunds" })];
        },
      };
      const store: TraceStore = {
        async record(invocation) {
          events.push(`trace:${invocation.evidenceCount}`);
        },
      };
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index: recordingIndex, traceStore: store });
      const result = found(await retriever.lookup("  Who can  refund\u0000 an invoice?  "));
      expect(events).toEqual(["l0:Who can refund an invoice?", "l1:Who can refund an invoice?", "trace:1"]);
      expect(result.evidenceBlocks).toHaveLength(1);
      expect(result.contextPack.blocks[0]?.evidenceKey).toBe("billing/refunds#chunk-0");
    });

    it("R2: looks knowledge up only when called; creating a retriever runs nothing", async () => {
      const port = createScriptedSearchPort([[hit("a", 0, 0.9)]]);
      const retriever = createKnowledgeRetriever({ searchPort: port });
      expect(port.calls).toBe(0);
      await retriever.lookup("anything");
      expect(port.calls).toBe(1);
    });

    it("R3: normalises the query (trim, NFKC, control characters, whitespace) before retrieval", async () => {
      const port = createScriptedSearchPort([[hit("a", 0, 0.9)]]);
      const retriever = createKnowledgeRetriever({ searchPort: port });
      const result = await retriever.lookup("\t Ｒｅｆｕｎｄ\u0007   window\u200b  \n");
      expect(port.requests[0]?.query).toBe("Refund window");
      expect(result.retrievalTrace.query).toMatchObject({
        received: "\t Ｒｅｆｕｎｄ\u0007   window\u200b  \n",
        normalized: "Refund window",
      });
    });

    it("R3: bounds the query length at rag.max-query-length, cutting at a word, and says so", async () => {
      const port = createScriptedSearchPort([[hit("a", 0, 0.9)]]);
      const retriever = createKnowledgeRetriever({ searchPort: port, config: { "rag.max-query-length": 40 } });
      const result = await retriever.lookup("refund ".repeat(200));
      const sent = port.requests[0]?.query ?? "";
      expect(sent.length).toBeLessThanOrEqual(40);
      expect(sent.endsWith("refund")).toBe(true);
      expect(result.retrievalTrace.query.truncated).toBe(true);
    });

    it("R3: expansion adds L0 entity terms to the first request; the retry uses the raw query", async () => {
      const port = createScriptedSearchPort([[], [hit("a", 0, 0.9)]]);
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index, config: { "rag.query-expansion": true } });
      const result = await retriever.lookup("How long is the refund window?");
      expect(port.requests[0]?.query).toBe("How long is the refund window? Billing Admin Refund Desk");
      expect(port.requests[1]?.query).toBe("How long is the refund window?");
      expect(result.retrievalTrace.query.addedTerms).toEqual(["Billing Admin", "Refund Desk"]);
    });
  });

  describe("L0 hints (R4-R6)", () => {
    it("R4: the result exposes the matched titles, keywords, domains and entities", async () => {
      const port = createScriptedSearchPort([[hit("billing/refunds", 0, 0.9, { category: "billing" })]]);
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index });
      const { hints } = (await retriever.lookup("Can the Billing Admin issue a refund?")).retrievalTrace;
      expect(hints.keywords).toContain("refund");
      expect(hints.entities).toContain("Billing Admin");
      expect(hints.domains).toEqual(["billing"]);
      expect(hints.entries.map((entry) => entry.id)).toContain("billing/refunds");
    });

    it("R5: a single L0 match does not short-circuit L1", async () => {
      const port = createScriptedSearchPort([[hit("billing/refunds", 0, 0.9, { category: "billing" })]]);
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index });
      const result = await retriever.lookup("refund");
      expect(result.retrievalTrace.hints.entries).toHaveLength(1);
      expect(port.calls).toBe(1);
      expect(result.found).toBe(true);
    });

    it("R5: with L1 disabled the result is no_evidence and the hints stay in the trace", async () => {
      const port = createScriptedSearchPort([[hit("billing/refunds", 0, 0.9)]]);
      const store = createInMemoryTraceStore();
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index, traceStore: store, config: { "rag.l1-enabled": false } });
      const result = await retriever.lookup("refund");
      expect(port.calls).toBe(0);
      expect(result).toMatchObject({ found: false, evidenceStatus: "no_evidence", evidenceBlocks: [] });
      expect(result.message).toMatch(/rag\.l1-enabled=false/);
      expect(result.retrievalTrace.hints.keywords).toEqual(["refund"]);
      expect(store.list()[0]?.retrievalDetails.hints.keywords).toEqual(["refund"]);
    });

    it("R6: L0 matches never become evidence, whether L1 finds nothing or throws", async () => {
      for (const answer of [[], { throws: new Error("index offline") }]) {
        const port = createScriptedSearchPort([answer]);
        const retriever = createKnowledgeRetriever({ searchPort: port, l0Index });
        const result = await retriever.lookup("refund invoice webhook");
        expect(result.retrievalTrace.hints.entries.length).toBeGreaterThan(0);
        expect(result.found).toBe(false);
        expect(result.evidenceBlocks).toEqual([]);
      }
    });

    it("R6: evidence blocks come only from port hits; hints only boost and explain them", async () => {
      const port = createScriptedSearchPort([
        [hit("other/doc", 0, 0.8, { category: "billing" }), hit("billing/refunds", 0, 0.78, { category: "billing", title: "Refunds" })],
      ]);
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index });
      const result = found(await retriever.lookup("refund"));
      expect(result.evidenceBlocks.map((block) => block.evidenceKey).sort()).toEqual(["billing/refunds#chunk-0", "other/doc#chunk-0"]);
      const refunds = result.evidenceBlocks.find((block) => block.docId === "billing/refunds");
      expect(refunds?.rank).toBe(1);
      expect(refunds?.hitReasons.join(" ")).toMatch(/Refunds/);
    });
  });

  describe("L1 filter and retry (R7-R12)", () => {
    it("R7: one L0 domain becomes a category filter on the first request", async () => {
      const port = createScriptedSearchPort([[hit("billing/refunds", 0, 0.9, { category: "billing" })]]);
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index });
      const result = await retriever.lookup("refund window");
      expect(result.retrievalTrace.hints.domains).toEqual(["billing"]);
      expect(port.requests[0]?.filter).toEqual(billingFilter);
      expect(result.retrievalTrace.attempts[0]?.l0Filter).toEqual(billingFilter);
    });

    it("R7: blank domains do not count; one non-blank domain still filters", async () => {
      const port = createScriptedSearchPort([[hit("a", 0, 0.9)]]);
      const blankIndex: L0Index = {
        size: 1,
        match: () => ({
          titles: [],
          keywords: ["x"],
          domains: ["billing", "  ", ""],
          entities: [],
          entries: [{ id: "e", source: "e.md", matches: [] }],
        }),
      };
      await createKnowledgeRetriever({ searchPort: port, l0Index: blankIndex }).lookup("x");
      expect(port.requests[0]?.filter).toEqual(billingFilter);
    });

    it("R7: a one-word title or keyword alone sets no category filter (its domain is only an otherDomain)", async () => {
      // "Refunds" names a topic many documents touch: it lists its entry, but a filter on that
      // entry's category would hide the answer whenever it lives elsewhere. First an index that
      // holds only the title, then the shared one, where the query also meets the keyword "refund".
      const titleOnly = createL0Index([{ id: "billing/refunds", source: "billing/refunds.md", title: "Refunds", domain: "billing" }]);
      for (const index of [titleOnly, l0Index]) {
        const port = createScriptedSearchPort([[hit("billing/refunds", 0, 0.9, { category: "billing", title: "Refunds" })]]);
        const retriever = createKnowledgeRetriever({ searchPort: port, l0Index: index });
        const result = found(await retriever.lookup("How do refunds work?"));
        const { hints } = result.retrievalTrace;
        expect(hints.titles).toEqual(["Refunds"]);
        expect(hints.entries.map((entry) => entry.id)).toEqual(["billing/refunds"]);
        expect(hints.domains).toEqual([]);
        expect(hints.otherDomains).toEqual(["billing"]);
        expect(port.requests[0]?.filter).toBeUndefined();
        expect(result.retrievalTrace.attempts[0]?.l0Filter).toBeUndefined();
        expect(port.calls).toBe(1);
      }
      // The same entry's two-word keyword is distinctive, and does make the filter.
      const port = createScriptedSearchPort([[hit("billing/refunds", 0, 0.9, { category: "billing" })]]);
      await createKnowledgeRetriever({ searchPort: port, l0Index }).lookup("How do refunds work after the refund window?");
      expect(port.requests[0]?.filter).toEqual(billingFilter);
    });

    it("R7: zero or several domains send no L0-derived filter", async () => {
      const cases: Array<[string, string[]]> = [
        ["what is the weather", []],
        ["webhook events for the refund window", ["billing", "integrations"]],
      ];
      for (const [query, domains] of cases) {
        const port = createScriptedSearchPort([[hit("a", 0, 0.9)]]);
        const retriever = createKnowledgeRetriever({ searchPort: port, l0Index });
        const result = await retriever.lookup(query);
        expect([...result.retrievalTrace.hints.domains].sort()).toEqual(domains);
        expect(port.requests[0]?.filter).toBeUndefined();
        expect(result.retrievalTrace.attempts[0]?.l0Filter).toBeUndefined();
        expect(port.calls).toBe(1);
      }
    });

    it("R8: a filtered request without candidates is retried unfiltered with the raw query", async () => {
      const port = createScriptedSearchPort([[], [hit("integrations/webhooks", 0, 0.7)]]);
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index, config: { queryExpansion: true } });
      const result = found(await retriever.lookup("When does the refund window close?"));
      expect(port.requests).toHaveLength(2);
      expect(port.requests[0]?.filter).toEqual(billingFilter);
      expect(port.requests[1]?.filter).toBeUndefined();
      expect(port.requests[1]?.query).toBe("When does the refund window close?");
      expect(result.retrievalTrace.fallbackReason).toBe("filtered_vector_no_evidence");
      expect(result.retrievalTrace.attempts.map((attempt) => attempt.outcome)).toEqual(["no_candidates", "usable"]);
    });

    it("R8: a filtered request whose hits all fail validation has no candidates and is retried", async () => {
      const port = createScriptedSearchPort([{ hits: [{ content: 42, metadata: {} }] }, [hit("a", 0, 0.7)]]);
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index });
      const result = await retriever.lookup("refund window");
      expect(result.retrievalTrace.fallbackReason).toBe("filtered_vector_no_evidence");
      expect(result.retrievalTrace.attempts[0]?.rejectedHits[0]?.reason).toMatch(/content/);
      expect(result.found).toBe(true);
    });

    it("R9: a filtered top score below the reference threshold triggers the same retry", async () => {
      const port = createScriptedSearchPort([[hit("billing/refunds", 0, 0.2, { category: "billing" })], [hit("b", 0, 0.8)]]);
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index, config: { "rag.reference-threshold": 0.5 } });
      const result = found(await retriever.lookup("refund window"));
      expect(port.requests.map((request) => request.filter)).toEqual([billingFilter, undefined]);
      expect(result.retrievalTrace.fallbackReason).toBe("filtered_vector_low_quality");
      expect(result.retrievalTrace.attempts[0]).toMatchObject({ outcome: "low_quality", topScore: 0.2 });
      expect(result.evidenceBlocks[0]?.evidenceKey).toBe("b#chunk-0");
    });

    it("R9: the top score is judged on the evidence that survived post-processing", async () => {
      // A (0.5, unboosted) loses its place to B (0.3, boosted by hints) under return-n 1:
      // the surviving evidence is below the threshold, so the attempt is not usable.
      const port = createScriptedSearchPort([
        [hit("other/a", 0, 0.5), hit("billing/refunds", 0, 0.3, { title: "Refunds", category: "billing", content: "refund refund" })],
        [],
      ]);
      const retriever = createKnowledgeRetriever({
        searchPort: port,
        l0Index,
        config: { "rag.return-n": 1, "rag.reference-threshold": 0.35 },
        // Boosts are shares of the best base score (0.5): title 0.6 adds 0.3.
        rerankWeights: { title: 0.6, maxPerSignal: 1, maxBoostShare: 2 },
      });
      const result = await retriever.lookup("refund window");
      expect(result.retrievalTrace.attempts[0]).toMatchObject({ outcome: "low_quality", topScore: 0.3, evidenceCount: 1 });
      expect(result.retrievalTrace.fallbackReason).toBe("filtered_vector_low_quality");
      expect(result.found).toBe(false);
    });

    it("R10: a usable filtered request (at the threshold) runs no retry", async () => {
      const port = createScriptedSearchPort([[hit("billing/refunds", 0, 0.5, { category: "billing" })], [hit("b", 0, 0.9)]]);
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index, config: { "rag.reference-threshold": 0.5 } });
      const result = found(await retriever.lookup("refund window"));
      expect(port.requests[0]?.filter).toEqual(billingFilter);
      expect(port.calls).toBe(1);
      expect(result.retrievalTrace.fallbackReason).toBeUndefined();
      expect(result.retrievalTrace.attempts).toHaveLength(1);
    });

    it("R11: when every attempt yields nothing usable the result is an honest no_evidence with every attempt traced", async () => {
      const port = createScriptedSearchPort([[hit("billing/refunds", 0, 0.05)], [hit("x", 0, 0.02)]]);
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index });
      const result = await retriever.lookup("refund window");
      expect(result).toMatchObject({ found: false, evidenceStatus: "no_evidence", relevanceLevel: "none", evidenceBlocks: [] });
      expect(result.message).toMatch(/No knowledge evidence was found/);
      expect(result.retrievalTrace.attempts.map(({ filter, candidateCount, topScore }) => ({ filter, candidateCount, topScore }))).toEqual([
        { filter: billingFilter, candidateCount: 1, topScore: 0.05 },
        { filter: undefined, candidateCount: 1, topScore: 0.02 },
      ]);
    });

    it("R11: a port that throws on every attempt never makes the lookup throw", async () => {
      const port = createScriptedSearchPort([{ throws: new Error("connection refused") }]);
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index });
      const result = await retriever.lookup("refund window");
      expect(result.found).toBe(false);
      expect(result.retrievalTrace.fallbackReason).toBe("filtered_vector_error");
      expect(result.retrievalTrace.attempts.map((attempt) => attempt.error?.message)).toEqual(["connection refused", "connection refused"]);
      // The model reads the failure's code; the port's own message stays in the trace (issue 33).
      expect(result.message).toMatch(/search failed on every attempt \(\w+\)/);
      expect(result.message).not.toContain("connection refused");
    });

    it("R12: a caller filter is kept on every attempt; the retry removes only the L0 filter", async () => {
      const port = createScriptedSearchPort([[], [hit("a", 0, 0.9)]]);
      // The entries are acme's, so the caller's filter admits them and their hints (issue 33).
      const acmeIndex = createL0Index(billingEntries.map((entry) => ({ ...entry, metadata: { tenant: "acme" } })));
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index: acmeIndex });
      const tenant = { tenant: { $eq: "acme" } };
      await retriever.lookup("refund window", { filter: tenant });
      expect(port.requests[0]?.filter).toEqual({ $and: [tenant, billingFilter] });
      expect(port.requests[1]?.filter).toEqual(tenant);
    });

    it("R12, issue 33: under a caller filter the hints come from the entries it admits only", async () => {
      const port = createScriptedSearchPort([[hit("a", 0, 0.9)], [hit("a", 0, 0.9)]]);
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index });
      // billingEntries carry no tenant: a tenant's lookup sees none of them, so no hint and no L0 filter.
      const scoped = await retriever.lookup("refund window", { filter: { tenant: "acme" } });
      expect(scoped.retrievalTrace.hints.entries).toEqual([]);
      expect(port.requests[0]?.filter).toEqual({ tenant: "acme" });
      // A filter on what the ingest gives every chunk (category) admits the entries of that category.
      const billing = await retriever.lookup("refund window", { filter: { category: "billing" } });
      expect(billing.retrievalTrace.hints.entries.map((entry) => entry.domain)).toEqual(["billing"]);
    });

    it("R12, issue 33: the hints' scope fails closed: an entry that does not say what a filter asks about is never admitted", async () => {
      const entries = [
        { ...billingEntries[0], metadata: { tenant: "a" } },
        // Says nothing of its tenant: its chunks may well be tenant b's.
        { ...billingEntries[1] },
      ] as typeof billingEntries;
      const port = createScriptedSearchPort(Array.from({ length: 6 }, () => [hit("a", 0, 0.9)]));
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index: createL0Index(entries) });
      const idsFor = async (filter: MetadataFilter) =>
        (await retriever.lookup("refund window invoices", { filter })).retrievalTrace.hints.entries.map((entry) => entry.id);
      expect(await idsFor({ tenant: { $ne: "b" } })).toEqual([entries[0]?.id]);
      expect(await idsFor({ $or: [{ tenant: "a" }, { tenant: { $exists: false } }] })).toEqual([entries[0]?.id]);
      expect(await idsFor({ tenant: { $nin: ["b"] } })).toEqual([entries[0]?.id]);
    });

    it("R12, issue 33: a scope whose hints cannot be built (the store failed) gives no hints, never a failed lookup", async () => {
      const port = createScriptedSearchPort([[hit("a", 0, 0.9)]]);
      const failing: L0Index = {
        size: l0Index.size,
        match: (query) => l0Index.match(query),
        within: () => {
          throw new Error("index closed");
        },
      };
      const result = await createKnowledgeRetriever({ searchPort: port, l0Index: failing }).lookup("refund window", {
        filter: { tenant: "a" },
      });
      expect(result.found).toBe(true);
      expect(result.retrievalTrace.hints.entries).toEqual([]);
    });

    it("R12, issue 33: an L0 index of one's own without within gives no hints under a caller filter, and all of them without", async () => {
      const port = createScriptedSearchPort([[hit("a", 0, 0.9)], [hit("a", 0, 0.9)]]);
      const own: L0Index = { size: l0Index.size, match: (query) => l0Index.match(query) };
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index: own });
      expect((await retriever.lookup("refund window", { filter: { category: "billing" } })).retrievalTrace.hints.entries).toEqual([]);
      expect((await retriever.lookup("refund window")).retrievalTrace.hints.entries.length).toBeGreaterThan(0);
    });

    it("R12: a malformed caller filter is refused before anything runs", async () => {
      const port = createScriptedSearchPort([[hit("a", 0, 0.9)]]);
      const retriever = createKnowledgeRetriever({ searchPort: port });
      await expect(retriever.lookup("refund", { filter: { tenant: { $regex: "a.*" } } as never })).rejects.toSatisfy(
        (error) => InvalidFilterError.isInstance(error) && /\$regex/.test((error as Error).message),
      );
      expect(port.calls).toBe(0);
    });

    it("R13: works with any object that implements KnowledgeSearchPort, and holds no vendor SDK", async () => {
      const requests: SearchRequest[] = [];
      const port: KnowledgeSearchPort = {
        search: async (request) => {
          requests.push(request);
          return [hit("a", 0, 0.9)];
        },
      };
      expect((await createKnowledgeRetriever({ searchPort: port }).lookup("anything")).found).toBe(true);
      expect(requests[0]?.topK).toBe(20);
      const here = dirname(fileURLToPath(import.meta.url));
      const packageJson = JSON.parse(readFileSync(join(here, "..", "package.json"), "utf8")) as Record<string, Record<string, string>>;
      const dependencies = Object.keys({ ...packageJson.dependencies, ...packageJson.peerDependencies });
      expect(dependencies.filter((name) => /pinecone|openai|weaviate|qdrant|chroma|lancedb/.test(name))).toEqual([]);
      const sources = readdirSync(here, { recursive: true, encoding: "utf8" }).filter(
        (name) => name.endsWith(".ts") && !name.endsWith(".test.ts"),
      );
      expect(sources).toContain(join("retriever", "run-attempt.ts"));
      for (const file of sources) {
        expect(readFileSync(join(here, file), "utf8")).not.toMatch(/from "@pinecone-database|from "@langchain\/community/);
      }
    });
  });

  describe("widths, result and layers (R16, R17, R21, R23)", () => {
    it("R17: asks the port for retrieve-k and returns at most return-n blocks", async () => {
      const hits = Array.from({ length: 20 }, (_, index) => hit(`doc-${index}`, 0, 0.95 - index * 0.01));
      const port = createScriptedSearchPort([hits]);
      const retriever = createKnowledgeRetriever({ searchPort: port, config: { "rag.retrieve-k": 20, "rag.return-n": 5 } });
      const result = found(await retriever.lookup("anything"));
      expect(port.requests[0]?.topK).toBe(20);
      expect(result.evidenceBlocks).toHaveLength(5);
      expect(result.completenessHint.status).toBe("partial");
    });

    it("R16: keeps at most two chunks per document by default", async () => {
      const hits = [0, 1, 2, 3].map((chunk) => hit("docA", chunk, 0.9 - chunk * 0.05));
      const retriever = createKnowledgeRetriever({ searchPort: createScriptedSearchPort([hits]) });
      const result = found(await retriever.lookup("anything"));
      expect(result.evidenceBlocks.map((block) => block.evidenceKey)).toEqual(["docA#chunk-0", "docA#chunk-1"]);
    });

    it("R21: a result with evidence carries blocks, pack, traces, relevance and completeness", async () => {
      const retriever = createKnowledgeRetriever({ searchPort: createScriptedSearchPort([[hit("a", 0, 0.9), hit("a", 1, 0.8)]]) });
      const result = found(await retriever.lookup("anything"));
      expect(result).toMatchObject({ found: true, evidenceStatus: "evidence", relevanceLevel: "high" });
      for (const field of ["evidenceBlocks", "contextPack", "retrievalTrace", "rerankTrace", "relevanceLevel", "completenessHint"]) {
        expect(result).toHaveProperty(field);
      }
      expect(result.rerankTrace.entries).toHaveLength(2);
    });

    it("R25: the smallest budget still packs the first block, cut to fit", async () => {
      const retriever = createKnowledgeRetriever({
        searchPort: createScriptedSearchPort([[hit("a", 0, 0.9, { content: "word ".repeat(120) })]]),
        config: { "rag.context-budget": 100 },
      });
      const result = found(await retriever.lookup("anything"));
      expect(result.contextPack.blocks).toHaveLength(1);
      expect(result.contextPack.blocks[0]?.truncated).toBe(true);
      expect(result.contextPack.used).toBeLessThanOrEqual(100);
    });

    it("R21: a result without evidence carries found=false, no_evidence, a message and the trace", async () => {
      const retriever = createKnowledgeRetriever({ searchPort: createScriptedSearchPort([[]]) });
      const result = await retriever.lookup("anything");
      expect(result).toMatchObject({ found: false, evidenceStatus: "no_evidence" });
      expect(result.message).toMatch(/no knowledge evidence/i);
      expect(result.retrievalTrace.attempts).toHaveLength(1);
    });

    it("R23: the layer is L0+L1 when hints and L1 candidates both took part, L1 when only L1 did", async () => {
      const withHints = createKnowledgeRetriever({
        searchPort: createScriptedSearchPort([[hit("billing/refunds", 0, 0.9, { category: "billing" })]]),
        l0Index,
      });
      expect((await withHints.lookup("refund")).retrievalTrace.retrievalLayer).toBe("L0+L1");
      const withoutHints = createKnowledgeRetriever({ searchPort: createScriptedSearchPort([[hit("a", 0, 0.9)]]), l0Index });
      const plain = found(await withoutHints.lookup("weather today"));
      expect(plain.retrievalTrace.retrievalLayer).toBe("L1");
      expect(plain.evidenceBlocks[0]?.retrievalLayer).toBe("L1");
    });
  });

  describe("trace recording (R27-R29)", () => {
    it("R27: every lookup records one invocation with its retrieval details", async () => {
      const store = createInMemoryTraceStore();
      const port = createScriptedSearchPort([[], [hit("billing/refunds", 0, 0.9, { title: "Refunds", category: "billing" })], []]);
      const retriever = createKnowledgeRetriever({ searchPort: port, l0Index, traceStore: store });
      await retriever.lookup("Can the Billing Admin refund?");
      await retriever.lookup("nothing to see");
      await retriever.flushTraces();
      const [first, second] = store.list();
      expect(store.size).toBe(2);
      expect(first).toMatchObject({
        toolName: "lookup_knowledge",
        found: true,
        retrievalLayer: "L0+L1",
        fallbackReason: "filtered_vector_no_evidence",
        evidenceCount: 1,
      });
      const details = first!.retrievalDetails;
      expect(details.hints).toMatchObject({ keywords: ["refund"], domains: ["billing"], entities: ["Billing Admin"] });
      expect(details.attempts.map((attempt) => attempt.filter)).toEqual([billingFilter, undefined]);
      expect(details.evidence[0]).toMatchObject({ source: "billing/refunds.md", title: "Refunds", score: 0.9 });
      expect(details.evidence[0]?.hitReasons.length).toBeGreaterThan(0);
      expect(second).toMatchObject({ found: false, evidenceStatus: "no_evidence" });
    });

    it("R27: a call refused for its query or filter is recorded too, with its error", async () => {
      const store = createInMemoryTraceStore();
      const retriever = createKnowledgeRetriever({ searchPort: createScriptedSearchPort([[hit("a", 0, 0.9)]]), traceStore: store });
      await expect(retriever.lookup("\u200b")).rejects.toThrow(/empty/);
      await expect(retriever.lookup("refund", { filter: { $nope: 1 } as never })).rejects.toThrow(InvalidFilterError);
      await retriever.flushTraces();
      const records = store.list();
      expect(records).toHaveLength(2);
      expect(records[0]).toMatchObject({ found: false, evidenceStatus: "no_evidence", query: "\u200b" });
      expect(records[0]?.error).toMatch(/empty after normalisation/);
      expect(records[1]?.error).toMatch(/\$nope/);
    });

    it("R28: the record keeps evidence compact, never the full content", async () => {
      const store = createInMemoryTraceStore();
      const long = `${"the refund window is one hundred and eighty days ".repeat(200)}END-MARKER`;
      const retriever = createKnowledgeRetriever({
        searchPort: createScriptedSearchPort([[hit("a", 0, 0.9, { content: long })]]),
        traceStore: store,
      });
      const result = found(await retriever.lookup("refund window"));
      expect(result.evidenceBlocks[0]?.content).toContain("END-MARKER");
      const json = JSON.stringify(store.list()[0]);
      expect(json).not.toContain("END-MARKER");
      expect(json.length).toBeLessThan(long.length / 4);
    });

    it("R29: a failing trace store never fails the lookup, and the record is kept until it can be written", async () => {
      const written: ToolInvocationRecord[] = [];
      let failures = 2;
      const store: TraceStore = {
        async record(invocation) {
          if (failures > 0) {
            failures -= 1;
            throw new Error("database is down");
          }
          written.push(invocation);
        },
      };
      const errors: string[] = [];
      const retriever = createKnowledgeRetriever({
        searchPort: createScriptedSearchPort([[hit("a", 0, 0.9)]]),
        traceStore: store,
        onTraceError: (error) => errors.push(error.message),
      });
      const result = await retriever.lookup("first");
      expect(result.found).toBe(true);
      await retriever.flushTraces();
      await retriever.lookup("second");
      await retriever.close();
      expect(errors.join("\n")).toMatch(/database is down/);
      expect(written.map((record) => record.query)).toEqual(["first", "second"]);
    });

    it("R29: a trace store that throws synchronously does not fail the lookup either", async () => {
      const store = {
        record() {
          throw new Error("sync failure");
        },
      } as unknown as TraceStore;
      const retriever = createKnowledgeRetriever({
        searchPort: createScriptedSearchPort([[hit("a", 0, 0.9)]]),
        traceStore: store,
        onTraceError: () => {},
      });
      await expect(retriever.lookup("anything")).resolves.toMatchObject({ found: true });
      expect((await retriever.flushTraces()).pending).toBe(1);
    });
  });

  describe("bad input", () => {
    it.each([
      ["", /empty/],
      ["   \t\n ", /empty/],
      ["\u0000\u0007\u200b", /empty/],
      [42, /must be a string, got number/],
      [null, /must be a string, got null/],
      [undefined, /must be a string, got undefined/],
    ])("refuses the query %j with a clear InvalidQueryError", async (query, message) => {
      const port = createScriptedSearchPort([[hit("a", 0, 0.9)]]);
      const retriever = createKnowledgeRetriever({ searchPort: port });
      const error = await retriever.lookup(query as string).catch((caught: unknown) => caught);
      expect(InvalidQueryError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(message);
      expect(port.calls).toBe(0);
    });

    it("abandons a port that hangs past rag.l1-timeout-ms and reports the timeout", async () => {
      const port = createScriptedSearchPort([{ hang: true }]);
      const retriever = createKnowledgeRetriever({ searchPort: port, config: { "rag.l1-timeout-ms": 30 } });
      const result = await retriever.lookup("anything");
      expect(result.found).toBe(false);
      expect(result.retrievalTrace.attempts[0]?.error).toMatchObject({ code: "timeout" });
      expect(result.retrievalTrace.attempts[0]?.error?.message).toMatch(/did not answer within 30 ms/);
      expect(result.message).toMatch(/failed on every attempt \(timeout\)/);
    });

    it("abandons a port that ignores the abort signal, on time", async () => {
      const port: KnowledgeSearchPort = { search: () => new Promise<SearchHit[]>(() => {}) };
      const retriever = createKnowledgeRetriever({ searchPort: port, config: { "rag.l1-timeout-ms": 20 } });
      const result = await retriever.lookup("anything");
      expect(result.retrievalTrace.attempts[0]?.outcome).toBe("error");
    });

    it("passes the port a signal that aborts on timeout", async () => {
      let seen: AbortSignal | undefined;
      const port: KnowledgeSearchPort = {
        search: (request) => {
          seen = request.signal;
          return new Promise<SearchHit[]>(() => {});
        },
      };
      await createKnowledgeRetriever({ searchPort: port, config: { "rag.l1-timeout-ms": 20 } }).lookup("anything");
      expect(seen?.aborted).toBe(true);
    });

    it("rejects with the caller's reason when the caller aborts", async () => {
      const port = createScriptedSearchPort([{ hang: true }]);
      const retriever = createKnowledgeRetriever({ searchPort: port });
      const controller = new AbortController();
      const pending = retriever.lookup("anything", { signal: controller.signal });
      controller.abort(new Error("user left"));
      await expect(pending).rejects.toThrow("user left");
    });

    it("a port that throws synchronously is an attempt error, not a crash", async () => {
      const port: KnowledgeSearchPort = {
        search() {
          throw new TypeError("cannot read properties of undefined");
        },
      };
      const result = await createKnowledgeRetriever({ searchPort: port }).lookup("anything");
      expect(result.retrievalTrace.attempts[0]?.error?.message).toMatch(/cannot read properties/);
    });

    it.each([
      ["missing content", { id: "x", metadata: { docId: "d", chunkIndex: 0 }, score: 0.9 }, /content/],
      ["NaN score", { id: "x", content: "c", metadata: { docId: "d", chunkIndex: 0 }, score: Number.NaN }, /score/],
      ["score above 1", { id: "x", content: "c", metadata: { docId: "d", chunkIndex: 0 }, score: 1.7 }, /1\.7/],
      ["negative score", { id: "x", content: "c", metadata: { docId: "d", chunkIndex: 0 }, score: -0.2 }, /-0\.2/],
    ])("drops a hit with %s, names why in the trace, and keeps the good hits", async (_, bad, reason) => {
      const port = createScriptedSearchPort([{ hits: [bad, hit("good", 0, 0.8)] }]);
      const result = found(await createKnowledgeRetriever({ searchPort: port }).lookup("anything"));
      expect(result.evidenceBlocks.map((block) => block.evidenceKey)).toEqual(["good#chunk-0"]);
      expect(result.retrievalTrace.attempts[0]?.rejectedHits[0]?.reason).toMatch(reason);
    });

    it("tolerates metadata of the wrong type without trusting it", async () => {
      const port = createScriptedSearchPort([
        {
          hits: [
            { id: "v1", content: "c", metadata: "not an object", score: 0.9 },
            { id: "v2", content: "d", metadata: { title: 42, source: ["x"] }, score: 0.8 },
          ],
        },
      ]);
      const result = found(await createKnowledgeRetriever({ searchPort: port }).lookup("anything"));
      expect(result.evidenceBlocks.map((block) => block.evidenceKey)).toEqual(["vector:v1", "vector:v2"]);
      expect(result.evidenceBlocks[1]?.title).toBeUndefined();
    });

    it("a port answer that is not an array is no evidence, with the reason traced", async () => {
      const port = createScriptedSearchPort([{ hits: { matches: [] } }]);
      const result = await createKnowledgeRetriever({ searchPort: port }).lookup("anything");
      expect(result.found).toBe(false);
      expect(result.retrievalTrace.attempts[0]?.rejectedHits[0]?.reason).toMatch(/not an array/);
    });

    it("refuses bad configuration with an error naming the key", () => {
      const port = createScriptedSearchPort([]);
      expect(() => createKnowledgeRetriever({ searchPort: port, config: { "rag.return-n": "many" } })).toThrow(/rag\.return-n/);
      expect(() => createKnowledgeRetriever({ searchPort: port, config: { "rag.return-n": "many" } })).toThrow(ConfigurationError);
    });

    it("refuses bad rerank weights when the retriever is created, not at lookup time", () => {
      const port = createScriptedSearchPort([]);
      expect(() => createKnowledgeRetriever({ searchPort: port, rerankWeights: { title: -1 } })).toThrow(/rerank weight title/);
    });

    it("refuses to start without a search port", () => {
      expect(() => createKnowledgeRetriever({} as never)).toThrow(/searchPort/);
    });
  });
});
