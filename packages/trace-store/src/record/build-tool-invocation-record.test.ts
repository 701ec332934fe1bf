import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { foundResult, longContent, noEvidenceResult } from "../../test/lookup-result-fixtures.js";
import { buildToolInvocationRecord } from "./build-tool-invocation-record.js";

const startedAt = new Date("2025-03-14T09:26:53.589Z");

describe("buildToolInvocationRecord", () => {
  it("fills the top-level fields from the result", () => {
    const record = buildToolInvocationRecord({ result: foundResult(), id: "inv-1", startedAt, durationMs: 42 });
    expect(record).toMatchObject({
      id: "inv-1",
      toolName: "lookup_knowledge",
      query: "  How do Visa refunds work? ",
      transformedQuery: "How do Visa refunds work? Visa",
      createdAt: "2025-03-14T09:26:53.589Z",
      durationMs: 42,
      found: true,
      evidenceStatus: "evidence",
      retrievalLayer: "L0+L1",
      fallbackReason: "filtered_vector_low_quality",
      candidateCount: 5,
      evidenceCount: 2,
      error: null,
    });
  });

  it("R27: query is the query as received, not the normalised one; transformedQuery is what the first L1 request used", () => {
    const result = foundResult();
    result.query = "normalised form";
    result.retrievalTrace.query = {
      received: "  Refund   WINDOW?\t",
      normalized: "Refund WINDOW?",
      transformed: "Refund WINDOW? billing",
      truncated: false,
      addedTerms: ["billing"],
    };
    const record = buildToolInvocationRecord({ result, startedAt, durationMs: 1 });
    expect(record.query).toBe("  Refund   WINDOW?\t");
    expect(record.transformedQuery).toBe("Refund WINDOW? billing");
    expect(record.error).toBeNull();
  });

  it("R28: a 1 MB received query is kept only up to maxQueryLength (default 1000), with its whole length recorded", () => {
    const base = foundResult();
    const received = `${"refund ".repeat(150_000)}💳`;
    const result = { ...base, retrievalTrace: { ...base.retrievalTrace, query: { ...base.retrievalTrace.query, received } } };
    const record = buildToolInvocationRecord({ result, startedAt, durationMs: 1 });
    expect(record.query).toHaveLength(1000);
    expect(record.query.endsWith("…")).toBe(true);
    expect(received.startsWith(record.query.slice(0, -1))).toBe(true);
    expect(record.retrievalDetails.receivedQueryLength).toBe(received.length);
    expect(JSON.stringify(record).length).toBeLessThan(20_000);
    const short = buildToolInvocationRecord({ result, startedAt, durationMs: 1, maxQueryLength: 64 });
    expect(short.query).toHaveLength(64);
    // A query within the bound is kept whole, and no length is added.
    expect(buildToolInvocationRecord({ result: base, startedAt, durationMs: 1 }).retrievalDetails.receivedQueryLength).toBeUndefined();
  });

  it("rejects a maxQueryLength that is not a whole number of 16 or more, naming it", () => {
    for (const maxQueryLength of [0, 15, 1.5, Number.NaN]) {
      expect(() => buildToolInvocationRecord({ result: foundResult(), startedAt, durationMs: 1, maxQueryLength })).toThrow(
        /maxQueryLength/,
      );
    }
  });

  it("keeps the input error as the record's error, cut at 500 characters", () => {
    const record = buildToolInvocationRecord({ result: foundResult(), startedAt, durationMs: 1, error: "x".repeat(600) });
    expect(record.error).toHaveLength(500);
    expect(record.error?.endsWith("…")).toBe(true);
  });

  it("defaults the id to a fresh UUID and takes a tool name and an error", () => {
    const first = buildToolInvocationRecord({ result: noEvidenceResult(), startedAt, durationMs: 1 });
    const second = buildToolInvocationRecord({
      result: noEvidenceResult(),
      startedAt,
      durationMs: 1,
      toolName: "search_docs",
      error: "the trace store is read-only",
    });
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.id).not.toBe(first.id);
    expect(second.toolName).toBe("search_docs");
    expect(second.error).toBe("the trace store is read-only");
  });

  it("R27: retrieval details hold the L0 hints: keywords, domains, entities, titles and entries", () => {
    const { retrievalDetails } = buildToolInvocationRecord({ result: foundResult(), startedAt, durationMs: 42 });
    expect(retrievalDetails.hints).toEqual({
      keywords: ["refund", "card"],
      domains: ["billing"],
      entities: ["Visa"],
      titles: ["Refund policy"],
      entries: [
        { id: "refunds", source: "docs/billing/refunds.md", title: "Refund policy", domain: "billing" },
        { id: "cards", source: "docs/billing/cards.md" },
      ],
    });
  });

  it("R27: retrieval details hold the layer, every attempt with its filters, the fallback reason and the counts", () => {
    const { retrievalDetails } = buildToolInvocationRecord({ result: foundResult(), startedAt, durationMs: 42 });
    expect(retrievalDetails.retrievalLayer).toBe("L0+L1");
    expect(retrievalDetails.l1Enabled).toBe(true);
    expect(retrievalDetails.fallbackReason).toBe("filtered_vector_low_quality");
    expect(retrievalDetails.candidateCount).toBe(5);
    expect(retrievalDetails.evidenceCount).toBe(2);
    expect(retrievalDetails.relevanceLevel).toBe("high");
    expect(retrievalDetails.attempts).toEqual([
      {
        attempt: 1,
        filter: { $and: [{ tenant: { $eq: "acme" } }, { category: { $eq: "billing" } }] },
        l0Filter: { category: { $eq: "billing" } },
        candidateCount: 3,
        evidenceCount: 2,
        topScore: 0.41,
        outcome: "low_quality",
        rejectedHits: 1,
        durationMs: 12,
      },
      {
        attempt: 2,
        filter: { tenant: { $eq: "acme" } },
        candidateCount: 5,
        evidenceCount: 2,
        topScore: 0.83,
        outcome: "usable",
        rejectedHits: 0,
        durationMs: 9,
      },
    ]);
  });

  it("issue 13: retrieval details keep the reference threshold beside the attempts, so a low-quality top score can be shown against it", () => {
    const { retrievalDetails } = buildToolInvocationRecord({ result: foundResult(), startedAt, durationMs: 42 });
    expect(retrievalDetails.referenceThreshold).toBe(0.6);
    expect(retrievalDetails.attempts[0]).toMatchObject({ outcome: "low_quality", topScore: 0.41 });
    const result = noEvidenceResult();
    result.retrievalTrace.referenceThreshold = 0.35;
    expect(buildToolInvocationRecord({ result, startedAt, durationMs: 1 }).retrievalDetails.referenceThreshold).toBe(0.35);
  });

  it("issue 32: an attempt refused for what its L0 filter left out keeps that share, so readers need not re-derive the rule", () => {
    const result = foundResult();
    const [first] = result.retrievalTrace.attempts;
    if (first === undefined) throw new Error("the fixture has an attempt");
    first.leftOutShare = 0.62;
    const { retrievalDetails } = buildToolInvocationRecord({ result, startedAt, durationMs: 42 });
    expect(retrievalDetails.attempts[0]?.leftOutShare).toBe(0.62);
    expect(retrievalDetails.attempts[1]).not.toHaveProperty("leftOutShare");
  });

  it("R27: retrieval details hold compact evidence summaries: source, title, layer, score, hit reasons", () => {
    const { retrievalDetails } = buildToolInvocationRecord({ result: foundResult(), startedAt, durationMs: 42 });
    expect(retrievalDetails.evidence).toHaveLength(2);
    expect(retrievalDetails.evidence[0]).toMatchObject({
      evidenceKey: "refunds#chunk-0",
      source: "docs/billing/refunds.md",
      title: "Refund policy",
      retrievalLayer: "L0+L1",
      score: 0.83,
      hitReasons: ["semantic match 0.83", 'title matches L0 hint "Refund policy"'],
    });
    expect(retrievalDetails.evidence[1]).toEqual({
      evidenceKey: "cards#chunk-3",
      source: "docs/billing/cards.md",
      retrievalLayer: "L0+L1",
      hitReasons: ['entity "Visa"'],
      preview: "Visa refunds appear on the statement within 5 days.",
      packed: expect.objectContaining({ truncated: false }),
    });
  });

  it("keeps the rerank trace and the context pack's source lists", () => {
    const { retrievalDetails } = buildToolInvocationRecord({ result: foundResult(), startedAt, durationMs: 42 });
    expect(retrievalDetails.rerank).toEqual([
      {
        rank: 1,
        evidenceKey: "refunds#chunk-0",
        source: "docs/billing/refunds.md",
        baseScore: 0.83,
        finalScore: 1.13,
        boosts: [{ signal: "title", amount: 0.3 }],
      },
      {
        rank: 2,
        evidenceKey: "cards#chunk-3",
        source: "docs/billing/cards.md",
        finalScore: 0.7,
        boosts: [{ signal: "entity", amount: 0.2 }],
      },
    ]);
    expect(retrievalDetails.contextPack).toEqual({
      includedSources: ["docs/billing/refunds.md", "docs/billing/cards.md"],
      omittedSources: ["docs/billing/disputes.md"],
      truncated: ["refunds#chunk-0"],
    });
  });

  it("R27: records a no-evidence lookup with its failed attempt and no evidence", () => {
    const record = buildToolInvocationRecord({ result: noEvidenceResult(), startedAt, durationMs: 3001 });
    expect(record).toMatchObject({ found: false, evidenceStatus: "no_evidence", fallbackReason: null, evidenceCount: 0 });
    expect(record.retrievalDetails.attempts).toEqual([
      {
        attempt: 1,
        candidateCount: 0,
        evidenceCount: 0,
        outcome: "error",
        rejectedHits: 0,
        error: "timeout: search did not answer within 3000 ms",
        durationMs: 3000,
      },
    ]);
    expect(record.retrievalDetails.evidence).toEqual([]);
    expect(record.retrievalDetails.rerank).toEqual([]);
    expect(record.retrievalDetails).not.toHaveProperty("contextPack");
    expect(record.retrievalDetails.relevanceLevel).toBe("none");
  });

  it("R28: a 10,000-character evidence content appears nowhere in the record; previews are at most 160 characters", () => {
    expect(longContent).toHaveLength(10_000);
    const record = buildToolInvocationRecord({ result: foundResult(), startedAt, durationMs: 42 });
    const json = JSON.stringify(record);
    expect(json).not.toContain(longContent);
    expect(json).not.toContain(longContent.slice(0, 161));
    expect(json.length).toBeLessThan(4_000);
    const [first] = record.retrievalDetails.evidence;
    expect(first?.preview.length).toBeLessThanOrEqual(160);
    expect(first?.preview.endsWith("…")).toBe(true);
    expect(longContent.startsWith(first?.preview.slice(0, -1) ?? "x")).toBe(true);
  });

  it("issue 13: each packed block keeps the digest, length and allotment of what the model read, never its text", () => {
    const result = foundResult();
    const record = buildToolInvocationRecord({ result, startedAt, durationMs: 42 });
    const [first, second] = record.retrievalDetails.evidence;
    const digest = (text: string) => createHash("sha256").update(text).digest("hex");
    expect(first?.packed).toEqual({ length: 3000, sha256: digest(longContent.slice(0, 3000)), truncated: true, allotment: 3000 });
    expect(second?.packed).toEqual({
      length: "Visa refunds appear on the statement within 5 days.".length,
      sha256: digest("Visa refunds appear on the statement within 5 days."),
      truncated: false,
    });
    expect(JSON.stringify(record)).not.toContain(longContent.slice(0, 161));
  });

  it("R28: a preview never splits a surrogate pair and short content is kept whole", () => {
    const result = foundResult();
    const block = result.evidenceBlocks[0];
    if (block === undefined) throw new Error("fixture has blocks");
    block.content = `${"a".repeat(158)}😀 tail`;
    const [summary] = buildToolInvocationRecord({ result, startedAt, durationMs: 1 }).retrievalDetails.evidence;
    expect(summary?.preview).toBe(`${"a".repeat(158)}…`);
    block.content = "short";
    const [short] = buildToolInvocationRecord({ result, startedAt, durationMs: 1 }).retrievalDetails.evidence;
    expect(short?.preview).toBe("short");
  });

  it("copies lists and filters, so changing the result later does not change the record", () => {
    const result = foundResult();
    const record = buildToolInvocationRecord({ result, startedAt, durationMs: 42 });
    result.retrievalTrace.hints.keywords.push("changed");
    const filter = result.retrievalTrace.attempts[1]?.filter as Record<string, unknown>;
    filter["tenant"] = "changed";
    result.evidenceBlocks[0]?.hitReasons.push("changed");
    expect(record.retrievalDetails.hints.keywords).toEqual(["refund", "card"]);
    expect(record.retrievalDetails.attempts[1]?.filter).toEqual({ tenant: { $eq: "acme" } });
    expect(record.retrievalDetails.evidence[0]?.hitReasons).not.toContain("changed");
  });

  it("yields plain JSON that survives a round trip", () => {
    const record = buildToolInvocationRecord({ result: foundResult(), startedAt, durationMs: 42 });
    expect(JSON.parse(JSON.stringify(record))).toEqual(record);
  });
});
