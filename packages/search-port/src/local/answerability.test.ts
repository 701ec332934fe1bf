import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultRagConfig } from "@lookup-knowledge/core";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import type { LocalSearchPort } from "./local-search-port.js";
import { openLocalSearchPort } from "./open-local-search-port.js";
import { defaultScoreExponents, queryScoreExponent } from "./search-snapshot.js";

const { latin: scoreExponent, cjk: cjkScoreExponent } = defaultScoreExponents;

// A small help-centre knowledge base, written for this test.
const knowledge: Array<[docId: string, title: string, content: string]> = [
  ["refunds", "Refund policy", "Refunds are paid back to the original payment card within five business days after the returned item arrives at our warehouse."],
  ["refunds", "Refund policy", "Digital purchases such as gift cards and software licences cannot be refunded once they have been activated."],
  ["shipping", "Shipping", "Orders placed before noon ship the same day from the Rotterdam warehouse; delivery inside the EU takes two to four days."],
  ["shipping", "Shipping", "Customers can track a parcel with the tracking number in the shipping confirmation email."],
  ["passwords", "Account security", "To reset a forgotten password, open the sign-in page, choose 'Forgot password' and follow the link we email you."],
  ["passwords", "Account security", "Two-factor authentication can be switched on in the security settings with an authenticator app."],
  ["limits", "API rate limits", "The public API allows 100 requests per minute per API key; requests over the limit receive HTTP status 429."],
  ["limits", "API rate limits", "Enterprise plans can ask support to raise the rate limit of an API key."],
  ["billing", "Invoices", "Invoices are emailed on the first day of each month and can be downloaded as PDF from the billing page."],
  ["billing", "Invoices", "Change the billing address or VAT number on the billing page before the invoice is issued."],
  ["zh-limits", "限流插件", "网关限流插件可以限制每个客户端每秒的请求数量，超过限制的请求会返回 429 状态码。"],
  ["zh-limits", "限流插件", "在路由上启用限流插件时，需要配置时间窗口和请求数量上限。"],
];
const records: KnowledgeRecord[] = knowledge.map(([docId, title, content], index) => ({
  id: `${docId}#chunk-${index}`,
  content,
  metadata: { docId, chunkIndex: index, title },
}));

const inScope: Array<[question: string, docId: string]> = [
  ["How long does a refund take to reach my card?", "refunds"],
  ["Can I get my money back for a gift card?", "refunds"],
  ["When will my order ship?", "shipping"],
  ["How do I track my parcel?", "shipping"],
  ["I forgot my password, how do I reset it?", "passwords"],
  ["How do I turn on two-factor authentication?", "passwords"],
  ["What is the API rate limit?", "limits"],
  ["How can I raise my API rate limit?", "limits"],
  ["Where can I download my invoice?", "billing"],
  ["How do I change my VAT number?", "billing"],
  ["限流插件如何配置时间窗口？", "zh-limits"],
  ["请求超过限制会返回什么状态码？", "zh-limits"],
];
const outOfScope = [
  "What is the best recipe for sourdough bread?",
  "Who won the football world cup in 2014?",
  "What is the capital of Australia?",
  "How do I change the oil in my car?",
  "Which programming language is best for web development?",
  "What time does the train to Paris leave?",
  "How do I learn to play the guitar?",
  "What is the weather like tomorrow?",
  "今天北京的天气怎么样？",
  "如何做红烧肉？",
];

const threshold = defaultRagConfig.referenceThreshold;
let directory: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "local-port-calibration-"));
  const writer = await openLocalSearchPort({ directory, mode: "write", embeddings: createOfflineEmbeddings() });
  await writer.upsert(records);
  await writer.commit();
  await writer.close();
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function topScores(port: LocalSearchPort, questions: string[]) {
  const hits = await Promise.all(questions.map((query) => port.search({ query, topK: 1 })));
  return hits.map((found) => found[0]);
}

describe.each([
  ["lexical only", false],
  ["hybrid with the offline embedder", true],
])("score calibration, %s", (_, hybrid) => {
  const open = (minScore?: number) =>
    openLocalSearchPort({ directory, ...(hybrid ? { embeddings: createOfflineEmbeddings() } : {}), ...(minScore === undefined ? {} : { minScore }) });

  it("calibration: in-scope questions reach rag.reference-threshold with the right document, unrelated questions stay below it", async () => {
    const port = await open(0);
    const found = await topScores(port, inScope.map(([question]) => question));
    found.forEach((hit, index) => expect(hit?.metadata["docId"], inScope[index]?.[0]).toBe(inScope[index]?.[1]));
    const above = found.filter((hit) => (hit?.score ?? 0) >= threshold).length;
    // Partly matched questions ("How long does a refund take ...") may fall below: at least 10 of 12 reach it.
    expect(above).toBeGreaterThanOrEqual(10);
    for (const hit of await topScores(port, outOfScope)) expect(hit?.score ?? 0).toBeLessThan(threshold);
    await port.close();
  });

  it("the minimum-evidence cut (minScore 0.2) leaves most unrelated questions without any hit and keeps every in-scope one", async () => {
    const port = await open();
    const outside = await topScores(port, outOfScope);
    expect(outside.filter((hit) => hit === undefined).length).toBeGreaterThanOrEqual(8);
    const inside = await topScores(port, inScope.map(([question]) => question));
    for (const hit of inside) expect(hit).toBeDefined();
    await port.close();
  });
});

describe("queryScoreExponent", () => {
  it("calibration: puts a CJK question on its own scale, English ones unchanged, mixed ones in between", () => {
    expect(queryScoreExponent(["rate", "limit"])).toBe(scoreExponent);
    expect(queryScoreExponent(["限流", "插件"])).toBe(cjkScoreExponent);
    const mixed = queryScoreExponent(["apisix", "限流"]);
    expect(mixed).toBeLessThan(scoreExponent);
    expect(mixed).toBeGreaterThan(cjkScoreExponent);
    expect(queryScoreExponent([])).toBe(scoreExponent);
  });
});

describe("scoreExponents", () => {
  it("calibration: exponents of 1 return the fused score itself, other exponents keep the order", async () => {
    const raw = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), minScore: 0, scoreExponents: { latin: 1, cjk: 1 } });
    const calibrated = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), minScore: 0 });
    for (const query of ["How do I track my parcel?", "限流插件如何配置时间窗口？"]) {
      const rawHits = await raw.search({ query, topK: 5 });
      const calibratedHits = await calibrated.search({ query, topK: 5 });
      expect(calibratedHits.map((hit) => hit.id)).toEqual(rawHits.map((hit) => hit.id));
      const exponent = queryScoreExponent(query.includes("限") ? ["限流"] : ["track"]);
      calibratedHits.forEach((hit, index) => expect(hit.score).toBeCloseTo((rawHits[index]?.score ?? 0) ** exponent, 6));
    }
    await raw.close();
    await calibrated.close();
  });

  it.each([
    [{ latin: 0 }, "scoreExponents.latin"],
    [{ cjk: -1 }, "scoreExponents.cjk"],
    [{ cjk: Number.NaN }, "scoreExponents.cjk"],
    [{ latin: 5 }, "scoreExponents.latin"],
    [{ english: 1 }, "scoreExponents.english"],
    ["steep", "scoreExponents"],
  ])("refuses scoreExponents %j with an error naming %s", async (scoreExponents, key) => {
    await expect(openLocalSearchPort({ directory, scoreExponents: scoreExponents as never })).rejects.toMatchObject({ key });
  });
});
