import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestIntoLocalIndex } from "../ingest-into-local-index.js";
import { openKnowledgeBase, type KnowledgeBase } from "../open-knowledge-base.js";
import { explainLookup } from "./explain-lookup.js";
import type { ExplainOutcome, LookupExplanation } from "./lookup-explanation.js";

const refundSections = [1, 2, 3]
  .map(
    (part) =>
      `## Refund rule ${part}\n\nA refund for a paid invoice is issued by the billing team within ${part * 5} days. ` +
      `The refund goes back to the card that paid the invoice; refund requests name the invoice number.\n`,
  )
  .join("\n");

const documents: Record<string, string> = {
  // The two-word keyword is distinctive: the query naming it gets the L0 filter category=billing (R7).
  "billing/refunds.md": `---\ntitle: Refunds\nkeywords: ["refund", "paid invoice"]\ncategory: billing\n---\n# Refunds\n\n${refundSections}`,
  "billing/invoices.md":
    "---\ntitle: Invoices\ncategory: billing\n---\n# Invoices\n\nAn invoice is sent on the first day of the month. A paid invoice can be downloaded as a PDF.\n",
  "support/hours.md":
    "---\ntitle: Support hours\ncategory: support\n---\n# Support hours\n\nThe support desk answers tickets on weekdays from nine to five, and urgent outages at any hour.\n",
  "support/password.md":
    "---\ntitle: Password reset\ncategory: support\n---\n# Password reset\n\nTo reset a forgotten password, open the sign-in page and follow the emailed link.\n",
};

const query = "Who issues a refund for a paid invoice?";

function outcomes(explanation: LookupExplanation): ExplainOutcome[] {
  return explanation.attempts.flatMap((attempt) => [attempt.outcome, ...(attempt.chunks ?? [])]);
}

describe("explainLookup", () => {
  let root: string;
  let dataDirectory: string;
  let secondData: string;
  const opened: KnowledgeBase[] = [];
  async function open(config: Record<string, number> = {}, data = dataDirectory): Promise<KnowledgeBase> {
    const knowledgeBase = await openKnowledgeBase({ dataDirectory: data, config, calibration: false });
    opened.push(knowledgeBase);
    return knowledgeBase;
  }
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "explain-docs-"));
    for (const [path, text] of Object.entries(documents)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    dataDirectory = await mkdtemp(join(tmpdir(), "explain-data-"));
    secondData = await mkdtemp(join(tmpdir(), "explain-data-2-"));
    await ingestIntoLocalIndex({ root, dataDirectory });
    await ingestIntoLocalIndex({ root, dataDirectory: secondData });
  });
  afterAll(async () => {
    for (const knowledgeBase of opened) await knowledgeBase.close();
    for (const folder of [root, dataDirectory, secondData]) await rm(folder, { recursive: true, force: true });
  });

  it("issue 13: included, with rank, score and boosts equal to a real lookup of the same query", async () => {
    const knowledgeBase = await open();
    const explanation = await explainLookup(knowledgeBase, query, { expected: "billing/refunds" });
    const real = await knowledgeBase.retriever.lookup(query);
    if (!real.found) throw new Error("the real lookup found nothing");
    expect(explanation.found).toBe(true);
    expect(explanation.expected).toMatchObject({ kind: "document", docId: "billing/refunds", source: "billing/refunds.md", inIndex: true });
    const used = explanation.attempts.find((attempt) => attempt.used);
    expect(used?.outcome.kind).toBe("included");
    const included = (used?.chunks ?? []).filter((chunk) => chunk.kind === "included" || chunk.kind === "truncated_by_budget");
    expect(included.length).toBeGreaterThan(0);
    const realRanks = new Map(real.evidenceBlocks.map((block, index) => [block.evidenceKey, index + 1]));
    const packed = new Set(real.contextPack.blocks.map((block) => block.evidenceKey));
    for (const chunk of included) {
      expect(chunk.rank).toBe(realRanks.get(chunk.evidenceKey ?? ""));
      expect(packed.has(chunk.evidenceKey ?? "")).toBe(true);
      const entry = real.rerankTrace.entries.find((traced) => traced.evidenceKey === chunk.evidenceKey);
      expect(chunk.score).toBe(entry?.finalScore);
      expect(chunk.boosts).toEqual(entry?.boosts);
      expect(chunk.message).toMatch(/included at rank \d/);
    }
    // A document's second block gives up a share of its score: the message shows the amount with its sign.
    const repeated = included.find((chunk) => chunk.boosts?.some((boost) => boost.signal === "repeated_document"));
    expect(repeated?.message).toMatch(/repeated_document -0\.\d{3}\b/);
    // Each boost is named with the word it matched, its amount to three decimals as the scores are.
    const keyword = included.find((chunk) => chunk.boosts?.some((boost) => boost.signal === "keyword"));
    expect(keyword?.message).toMatch(/keyword "[^"]+" \+0\.\d{3}\b/);
    expect(keyword?.message).not.toMatch(/\d\.\d{4}/);
    expect(explanation.result.evidenceBlocks.map((block) => block.evidenceKey)).toEqual(
      real.evidenceBlocks.map((block) => block.evidenceKey),
    );
    expect(JSON.parse(JSON.stringify(explanation))).toEqual(explanation);
  });

  it("issue 13: not_in_index for a source the store does not hold, and for a chunk past the document's end", async () => {
    const knowledgeBase = await open();
    const missing = await explainLookup(knowledgeBase, query, { expected: "billing/chargebacks.md" });
    expect(missing.found).toBe(false);
    expect(missing.expected.inIndex).toBe(false);
    expect(missing.attempts.length).toBeGreaterThan(0);
    for (const attempt of missing.attempts) expect(attempt.outcome.kind).toBe("not_in_index");
    const chunk = await explainLookup(knowledgeBase, query, { expected: "billing/invoices#chunk-7" });
    expect(chunk.attempts.map((attempt) => attempt.outcome.kind)).toEqual(chunk.attempts.map(() => "not_in_index"));
  });

  it("issue 13: excluded_by_filter names the caller filter clause the document's metadata fails", async () => {
    const knowledgeBase = await open();
    const explanation = await explainLookup(knowledgeBase, query, { expected: "billing/refunds.md", filter: { category: "support" } });
    const [first] = explanation.attempts;
    expect(first?.outcome).toMatchObject({ kind: "excluded_by_filter", clause: { category: "support" }, clauseOrigin: "caller" });
    expect(first?.outcome.message).toContain('{"category":"support"}');
    expect(explanation.found).toBe(false);
  });

  it("issue 13: excluded_by_filter names the L0 filter clause when the hints steered the attempt", async () => {
    const knowledgeBase = await open();
    const explanation = await explainLookup(knowledgeBase, query, { expected: "support/hours.md" });
    const [first] = explanation.attempts;
    expect(first?.l0Filter).toEqual({ category: { $eq: "billing" } });
    expect(first?.outcome).toMatchObject({ kind: "excluded_by_filter", clause: { category: { $eq: "billing" } }, clauseOrigin: "l0" });
    expect(first?.outcome.message).toContain("L0 filter");
  });

  it("issue 13: beyond_retrieve_k gives the rank and score when searched deeper", async () => {
    const knowledgeBase = await open({ "rag.retrieve-k": 1, "rag.return-n": 1 });
    const explanation = await explainLookup(knowledgeBase, query, { expected: "billing/invoices.md" });
    const outcome = explanation.attempts.at(-1)?.outcome;
    expect(outcome).toMatchObject({ kind: "beyond_retrieve_k", retrieveK: 1, searchedTo: 200 });
    expect(outcome?.portRank).toBeGreaterThan(1);
    expect(outcome?.portScore).toBeTypeOf("number");
  });

  it("issue 13: cut_by_document_cap when rag.max-chunks-per-document keeps fewer chunks of the document", async () => {
    const knowledgeBase = await open({ "rag.max-chunks-per-document": 1 });
    const explanation = await explainLookup(knowledgeBase, query, { expected: "billing/refunds" });
    expect(explanation.expected.chunkCount).toBeGreaterThan(1);
    const used = explanation.attempts.find((attempt) => attempt.used);
    const kinds = (used?.chunks ?? []).map((chunk) => chunk.kind);
    expect(kinds.filter((kind) => kind === "included" || kind === "truncated_by_budget")).toHaveLength(1);
    expect(kinds).toContain("cut_by_document_cap");
    expect(used?.chunks?.find((chunk) => chunk.kind === "cut_by_document_cap")).toMatchObject({ maxChunksPerDocument: 1 });
    expect(used?.outcome.chunkCounts?.cut_by_document_cap).toBeGreaterThan(0);
  });

  it("issue 13: cut_by_return_n gives the rank after rerank and rag.return-n", async () => {
    const knowledgeBase = await open({ "rag.return-n": 1, "rag.max-chunks-per-document": 1 });
    const explanation = await explainLookup(knowledgeBase, query, { expected: "billing/invoices.md" });
    const outcome = explanation.attempts.at(-1)?.outcome;
    expect(outcome).toMatchObject({ kind: "cut_by_return_n", returnN: 1 });
    expect(outcome?.rank).toBeGreaterThan(1);
  });

  it("issue 13: truncated_by_budget and omitted_by_budget under a small rag.context-budget", async () => {
    const knowledgeBase = await open({ "rag.context-budget": 100, "rag.max-chunks-per-document": 3 });
    const explanation = await explainLookup(knowledgeBase, query, { expected: "billing/refunds.md" });
    const kinds = outcomes(explanation).map((outcome) => outcome.kind);
    expect(kinds).toContain("truncated_by_budget");
    expect(kinds).toContain("omitted_by_budget");
    const truncated = outcomes(explanation).find((outcome) => outcome.kind === "truncated_by_budget");
    expect(truncated?.keptChars).toBeLessThan(truncated?.originalLength ?? 0);
    expect(truncated).toMatchObject({ contextBudget: 100 });
    expect(explanation.found).toBe(true);
  });

  it("issue 13: attempt_refused gives the top score and the threshold, on the L0-filtered attempt and its retry", async () => {
    const knowledgeBase = await open({ "rag.reference-threshold": 1 });
    const explanation = await explainLookup(knowledgeBase, query, { expected: "billing/refunds.md" });
    expect(explanation.result.found).toBe(false);
    expect(explanation.attempts.map((attempt) => attempt.attemptOutcome)).toEqual(["low_quality", "low_quality"]);
    for (const attempt of explanation.attempts) {
      expect(attempt.outcome).toMatchObject({ kind: "attempt_refused", referenceThreshold: 1, rank: 1 });
      expect(attempt.outcome.topScore).toBeLessThan(1);
      expect(attempt.outcome.message).toMatch(/below rag\.reference-threshold=1/);
    }
    expect(explanation.found).toBe(false);
  });

  it("issue 13: merged_by_dedup names the evidence key a second copy was merged into", async () => {
    // Two stores holding the same folder, searched as one (two shards of one base): each chunk comes back twice.
    const first = await open();
    const second = await open({}, secondData);
    const port: KnowledgeSearchPort = {
      async search(request) {
        const hits = [...(await first.store.port.search(request)), ...(await second.store.port.search(request))];
        return hits.sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
      },
    };
    const sharded = { retriever: first.retriever, store: { port, stateDirectory: first.store.stateDirectory }, l0Index: first.l0Index };
    const explanation = await explainLookup(sharded, query, { expected: "billing/refunds.md" });
    const merged = outcomes(explanation).find((outcome) => outcome.kind === "merged_by_dedup");
    expect(merged?.mergedInto).toMatch(/^billing\/refunds#chunk-\d+$/);
    expect(merged?.mergedInto).toBe(merged?.evidenceKey);
    expect(merged?.keptPortRank).toBeLessThan(merged?.portRank ?? 0);
    const chunk = await explainLookup(sharded, query, { expected: merged?.evidenceKey ?? "" });
    const used = chunk.attempts.find((attempt) => attempt.used);
    expect(used?.outcome.kind).not.toBe("merged_by_dedup");
    expect(used?.chunks?.map((entry) => entry.kind)).toContain("merged_by_dedup");
  });

  it("issue 13: config overrides on top of the base's settings (the README's example), and a chunk as expected", async () => {
    const knowledgeBase = await open();
    const explanation = await explainLookup(knowledgeBase, query, {
      expected: "billing/refunds",
      config: { "rag.max-chunks-per-document": 1 },
    });
    const used = explanation.attempts.find((attempt) => attempt.used);
    expect(used?.chunks?.map((chunk) => chunk.kind)).toContain("cut_by_document_cap");
    const capped = used?.chunks?.find((chunk) => chunk.kind === "cut_by_document_cap")?.evidenceKey ?? "";
    const chunk = await explainLookup(knowledgeBase, query, { expected: capped, config: { maxChunksPerDocument: 1 } });
    expect(chunk.expected).toMatchObject({ kind: "chunk", evidenceKey: capped, docId: "billing/refunds", inIndex: true });
    expect(chunk.attempts.find((attempt) => attempt.used)?.outcome).toMatchObject({ kind: "cut_by_document_cap", evidenceKey: capped });
    expect(chunk.attempts.find((attempt) => attempt.used)?.chunks).toBeUndefined();
    // The base's own retriever is untouched.
    expect(knowledgeBase.retriever.config.maxChunksPerDocument).not.toBe(1);
  });

  it("issue 13: without an ingest manifest the store's own records decide whether it holds the document", async () => {
    const knowledgeBase = await open();
    const bare = { retriever: knowledgeBase.retriever, store: { port: knowledgeBase.store.port }, l0Index: knowledgeBase.l0Index };
    const held = await explainLookup(bare, query, { expected: "billing/refunds.md" });
    expect(held.expected).toMatchObject({ inIndex: true, source: "billing/refunds.md" });
    expect(held.found).toBe(true);
    const missing = await explainLookup(bare, query, { expected: "billing/chargebacks" });
    expect(missing.expected.inIndex).toBe(false);
    expect(missing.attempts.every((attempt) => attempt.outcome.kind === "not_in_index")).toBe(true);
  });

  it("issue 13: attempt_failed when the store's search fails, with its message", async () => {
    const knowledgeBase = await open();
    const port: KnowledgeSearchPort = { search: () => Promise.reject(new Error("the store is unreachable")) };
    const failing = { retriever: knowledgeBase.retriever, store: { port, stateDirectory: knowledgeBase.store.stateDirectory } };
    const explanation = await explainLookup(failing, query, { expected: "billing/refunds.md" });
    expect(explanation.attempts.length).toBeGreaterThan(0);
    for (const attempt of explanation.attempts) {
      expect(attempt.outcome.kind).toBe("attempt_failed");
      expect(attempt.outcome.message).toContain("the store is unreachable");
    }
    expect(explanation.found).toBe(false);
  });

  it("issue 13 review: a failed deeper search is deeper_search_failed with the error's code and message, never 'not among the top 200'", async () => {
    const knowledgeBase = await open({ "rag.retrieve-k": 1, "rag.return-n": 1 });
    const real = knowledgeBase.store.port;
    const deepRequests: number[] = [];
    // The real port for the lookup; the explain's own 200-deep search fails.
    const port: KnowledgeSearchPort = {
      search: (request) => {
        if (request.topK !== 200) return real.search(request);
        deepRequests.push(request.topK);
        return Promise.reject(new Error("the index shard\u0007 went away"));
      },
    };
    const failing = { retriever: knowledgeBase.retriever, store: { port, stateDirectory: knowledgeBase.store.stateDirectory } };
    const explanation = await explainLookup(failing, query, { expected: "billing/invoices.md" });
    expect(deepRequests.length).toBeGreaterThan(0);
    const outcome = explanation.attempts.at(-1)?.outcome;
    expect(outcome).toMatchObject({
      kind: "deeper_search_failed",
      retrieveK: 1,
      searchedTo: 200,
      searchError: { code: "search_failed", message: "the index shard\u0007 went away" },
    });
    expect(outcome?.message).toContain("failed (search_failed: the index shard\u0007 went away)");
    expect(outcome?.chunkCounts).toEqual({ deeper_search_failed: 1 });
    for (const each of outcomes(explanation)) expect(each.message).not.toMatch(/not among the top/);
    expect(explanation.found).toBe(false);
    // The explanation is JSON (the CLI's --json) with the failure in it.
    expect(JSON.parse(JSON.stringify(explanation)).attempts.at(-1).outcome.searchError.code).toBe("search_failed");
  });

  it("issue 13 review: an abort during the deeper search rejects with the signal's reason, not a reported failure", async () => {
    const knowledgeBase = await open({ "rag.retrieve-k": 1, "rag.return-n": 1 });
    const real = knowledgeBase.store.port;
    const controller = new AbortController();
    const stopped = new Error("the caller stopped");
    const port: KnowledgeSearchPort = {
      search: (request) => {
        if (request.topK !== 200) return real.search(request);
        controller.abort(stopped);
        return Promise.reject(new Error("aborted"));
      },
    };
    const aborting = { retriever: knowledgeBase.retriever, store: { port, stateDirectory: knowledgeBase.store.stateDirectory } };
    await expect(explainLookup(aborting, query, { expected: "billing/invoices.md", signal: controller.signal })).rejects.toBe(stopped);
  });

  it("issue 13: refuses a blank expected and a bad override with a sentence naming the option", async () => {
    const knowledgeBase = await open();
    await expect(explainLookup(knowledgeBase, query, { expected: "  " })).rejects.toThrow(/expected/);
    await expect(explainLookup(knowledgeBase, query, { expected: "billing/refunds", config: { "rag.return-n": 0 } })).rejects.toThrow(
      /rag\.return-n/,
    );
    await expect(explainLookup(knowledgeBase, query, { expected: "billing/refunds", searchedTo: 5000 })).rejects.toThrow(/searchedTo/);
  });
});
