// Over 300 lines on purpose: the answerability judgement end to end on one shared index (built once in
// beforeAll, which costs seconds); the fit is tested in fit-answerability-model.test.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultRagConfig, type MetadataFilter } from "@lookup-knowledge/core";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import type { LocalSearchPort } from "../port/local-search-port.js";
import { openLocalSearchPort } from "../open-local-search-port.js";
import { answerabilityModelName, interactionPairs, parseAnswerabilityModel, scoreAnswerability } from "./answerability-model.js";
import { answerabilitySignalNames, type AnswerabilitySignals } from "./answerability-signals.js";
import { defaultAnswerabilityModel } from "./default-answerability-model.js";

// A small help-centre knowledge base, written for this test.
const knowledge: Array<[docId: string, title: string, content: string]> = [
  [
    "refunds",
    "Refund policy",
    "Refunds are paid back to the original payment card within five business days after the returned item arrives at our warehouse.",
  ],
  [
    "refunds",
    "Refund policy",
    "Digital purchases such as gift cards and software licences cannot be refunded once they have been activated.",
  ],
  [
    "shipping",
    "Shipping",
    "Orders placed before noon ship the same day from the Rotterdam warehouse; delivery inside the EU takes two to four days.",
  ],
  ["shipping", "Shipping", "Customers can track a parcel with the tracking number in the shipping confirmation email."],
  [
    "passwords",
    "Account security",
    "To reset a forgotten password, open the sign-in page, choose 'Forgot password' and follow the link we email you.",
  ],
  ["passwords", "Account security", "Two-factor authentication can be switched on in the security settings with an authenticator app."],
  [
    "limits",
    "API rate limits",
    "The public API allows 100 requests per minute per API key; requests over the limit receive HTTP status 429.",
  ],
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

// The threshold the shipped model names for its own judgement (the retriever reads it at this one).
const threshold = defaultAnswerabilityModel.referenceThreshold ?? defaultRagConfig.referenceThreshold;
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
    openLocalSearchPort({
      directory,
      ...(hybrid ? { embeddings: createOfflineEmbeddings() } : {}),
      ...(minScore === undefined ? {} : { minScore }),
    });

  it("calibration: in-scope questions reach rag.reference-threshold with the right document, unrelated questions stay below it", async () => {
    const port = await open(0);
    const found = await topScores(
      port,
      inScope.map(([question]) => question),
    );
    found.forEach((hit, index) => {
      expect(hit?.metadata["docId"], inScope[index]?.[0]).toBe(inScope[index]?.[1]);
    });
    const above = found.filter((hit) => (hit?.answerability?.score ?? 0) >= threshold).length;
    // Partly matched questions ("How long does a refund take ...", and without the dense part
    // "How do I turn on two-factor authentication?", whose "turn" no record holds) may fall below:
    // at least 9 of 12 reach it.
    expect(above).toBeGreaterThanOrEqual(hybrid ? 10 : 9);
    for (const hit of await topScores(port, outOfScope)) expect(hit?.answerability?.score ?? 0).toBeLessThan(threshold);
    await port.close();
  });

  it("R9: the judgement never empties a list: an unrelated question that shares a word keeps its hits, judged below the threshold", async () => {
    const port = await open();
    const outside = await topScores(port, outOfScope);
    const withHits = outside.filter((hit) => hit !== undefined);
    expect(withHits.length).toBeGreaterThan(0);
    for (const hit of withHits) {
      expect(hit?.answerability?.score ?? 1).toBeLessThan(threshold);
      expect(hit?.score ?? 0).toBeGreaterThan(0);
    }
    const inside = await topScores(
      port,
      inScope.map(([question]) => question),
    );
    expect(inside.every((hit) => hit !== undefined)).toBe(true);
    await port.close();
  });
});

describe("answerability", () => {
  it("R9: the best hit carries the model's judgement and every signal; every hit keeps its fused ranking score, untouched by the judgement", async () => {
    const raw = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), minScore: 0, answerability: false });
    const judged = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), minScore: 0 });
    for (const query of ["How do I track my parcel?", "限流插件如何配置时间窗口？", "How do I change the oil in my car?"]) {
      const rawHits = await raw.search({ query, topK: 5 });
      const hits = await judged.search({ query, topK: 5 });
      expect(hits.map((hit) => hit.id)).toEqual(rawHits.map((hit) => hit.id));
      expect(rawHits[0]?.answerability).toBeUndefined();
      const first = hits[0]?.answerability;
      expect(first?.model).toBe(answerabilityModelName(defaultAnswerabilityModel));
      expect(Object.keys(first?.signals ?? {}).sort()).toEqual([...answerabilitySignalNames].sort());
      expect(first?.score).toBeCloseTo(scoreAnswerability(defaultAnswerabilityModel, first?.signals as AnswerabilitySignals), 3);
      hits.forEach((hit, index) => {
        expect(hit.score).toBe(rawHits[index]?.score);
        if (index > 0) expect(hit.answerability).toBeUndefined();
      });
    }
    await raw.close();
    await judged.close();
  });

  it("R9: the best hit's score and signals do not depend on how many hits are asked for", async () => {
    const port = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), minScore: 0 });
    for (const query of ["How do I track my parcel?", "限流插件如何配置时间窗口？"]) {
      const [one] = await port.search({ query, topK: 1 });
      const [three] = await port.search({ query, topK: 3 });
      const [twenty] = await port.search({ query, topK: 20 });
      expect(one?.answerability).toEqual(twenty?.answerability);
      expect(three?.answerability).toEqual(twenty?.answerability);
      expect(one?.score).toBe(twenty?.score);
    }
    expect(await port.search({ query: "rate limit API key", topK: 2 })).toHaveLength(2);
    await port.close();
  });

  it("R9: matchedTerms counts the query's words the best hit holds, rare ones more: words no record holds raise terms, never matchedTerms", async () => {
    const port = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), minScore: 0 });
    const signalsOf = async (query: string) => (await port.search({ query, topK: 5 }))[0]?.answerability?.signals as AnswerabilitySignals;
    const short = await signalsOf("track parcel");
    // The best hit holds both words: every word of the query counts whole.
    expect(short.coverage).toBe(1);
    expect(short.matchedTerms).toBeCloseTo(Math.log(3), 3);
    expect(short.matchedTerms).toBeCloseTo(short.terms, 3);
    const padded = await signalsOf("track parcel zebra xylophone quokka");
    expect(padded.terms).toBeCloseTo(Math.log(6), 3);
    expect(padded.matchedTerms).toBeLessThan(short.matchedTerms);
    expect(padded.matchedTerms).toBeGreaterThan(0);
    await port.close();
  });

  it("R9: a steering filter (scopeFilter {}) that leaves the best match out reports the share of the best fused score it keeps (filterShare); the judgement and the scores stay unscaled", async () => {
    const port = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), minScore: 0 });
    const query = "Does the tracking number come by email?";
    const [open] = await port.search({ query, topK: 5 });
    expect(open?.metadata["docId"]).toBe("shipping");
    expect(open?.answerability?.signals).not.toHaveProperty("filterShare");

    // The filtered list has other neighbours, so its signals differ, but nothing scales its judgement.
    const [kept] = await port.search({ query, topK: 5, filter: { docId: { $eq: "shipping" } }, scopeFilter: {} });
    expect(kept?.id).toBe(open?.id);
    expect(kept?.answerability?.signals["filterShare"]).toBe(1);
    expect(kept?.answerability?.score).toBeCloseTo(
      scoreAnswerability(defaultAnswerabilityModel, kept?.answerability?.signals as AnswerabilitySignals),
      3,
    );
    expect(kept?.score).toBe(open?.score);

    const [elsewhere] = await port.search({ query, topK: 5, filter: { docId: { $eq: "billing" } }, scopeFilter: {} });
    const share = elsewhere?.answerability?.signals["filterShare"] ?? 1;
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(1);
    const modelled = scoreAnswerability(defaultAnswerabilityModel, elsewhere?.answerability?.signals as AnswerabilitySignals);
    expect(elsewhere?.answerability?.score).toBeCloseTo(modelled, 3);
    expect(elsewhere?.score ?? 1).toBeCloseTo((open?.score ?? 0) * share, 3);
    // The same filter without a scope is the caller's own: nothing scales it, nothing shows, and
    // it is searched as if the index held its records only (issue 33), so its signals are its own.
    const [unscoped] = await port.search({ query, topK: 5, filter: { docId: { $eq: "billing" } } });
    expect(unscoped?.id).toBe(elsewhere?.id);
    expect(unscoped?.answerability?.signals).not.toHaveProperty("filterShare");
    const own = scoreAnswerability(defaultAnswerabilityModel, unscoped?.answerability?.signals as AnswerabilitySignals);
    expect(unscoped?.answerability?.score).toBeCloseTo(own, 3);
    await port.close();
  });

  describe("scoped filters (two tenants)", () => {
    let tenants: string;
    // The other tenant's record matches the query better than anything of acme's.
    const tenantRecords: KnowledgeRecord[] = [
      {
        id: "globex#refunds",
        content:
          "How long until refunds are paid back to my payment card? Refunds are paid back to the payment card five business days after the returned parcel arrives.",
        metadata: { docId: "globex-refunds", tenant: "globex", category: "billing" },
      },
      {
        id: "acme#refunds",
        content: "Refunds reach the card in about a week once the returned parcel is checked.",
        metadata: { docId: "acme-refunds", tenant: "acme", category: "billing" },
      },
      {
        id: "acme#refunds-shipping",
        content: "Refunds are paid back to the card after the parcel arrives at the warehouse.",
        metadata: { docId: "acme-returns", tenant: "acme", category: "shipping" },
      },
      {
        id: "acme#passwords",
        content: "To reset a forgotten password, open the sign-in page and follow the emailed link.",
        metadata: { docId: "acme-passwords", tenant: "acme", category: "account" },
      },
    ];
    const query = "How long until refunds are paid back to my payment card after the returned parcel arrives?";

    beforeAll(async () => {
      tenants = mkdtempSync(join(tmpdir(), "local-port-tenants-"));
      const writer = await openLocalSearchPort({ directory: tenants, mode: "write", embeddings: createOfflineEmbeddings() });
      await writer.upsert(tenantRecords);
      await writer.commit();
      await writer.close();
    });
    afterAll(() => rmSync(tenants, { recursive: true, force: true }));

    it("R12: a caller filter alone (a tenant) never lowers the score because other tenants' records match better, and filterShare is not in the trace", async () => {
      const port = await openLocalSearchPort({ directory: tenants, embeddings: createOfflineEmbeddings(), minScore: 0 });
      const [open] = await port.search({ query, topK: 5 });
      expect(open?.id).toBe("globex#refunds");
      const [mine] = await port.search({ query, topK: 5, filter: { tenant: "acme" } });
      expect(mine?.metadata["tenant"]).toBe("acme");
      expect(mine?.answerability?.signals).not.toHaveProperty("filterShare");
      const modelled = scoreAnswerability(defaultAnswerabilityModel, mine?.answerability?.signals as AnswerabilitySignals);
      expect(mine?.answerability?.score).toBeCloseTo(modelled, 3);
      // Naming the tenant as the scope changes nothing either: acme's best record is in the list.
      const [scoped] = await port.search({ query, topK: 5, filter: { tenant: "acme" }, scopeFilter: { tenant: "acme" } });
      expect(scoped?.id).toBe(mine?.id);
      expect(scoped?.answerability?.signals["filterShare"]).toBe(1);
      expect(scoped?.answerability?.score).toBeCloseTo(modelled, 3);
      await port.close();
    });

    it("R12: with filter = tenant and category and scopeFilter = tenant, only the tenant's records count for the share", async () => {
      const port = await openLocalSearchPort({ directory: tenants, embeddings: createOfflineEmbeddings(), minScore: 0 });
      const acme = { tenant: "acme" };
      const [best] = await port.search({ query, topK: 5, filter: acme });
      expect(best?.id).toBe("acme#refunds-shipping");
      const [billing] = await port.search({ query, topK: 5, filter: { $and: [acme, { category: "billing" }] }, scopeFilter: acme });
      expect(billing?.id).toBe("acme#refunds");
      const share = billing?.answerability?.signals["filterShare"] ?? 1;
      expect(share).toBeGreaterThan(0);
      expect(share).toBeLessThan(1);
      // The share is against acme's best record, not globex's better one.
      const [raw] = await openRawScores(tenants, query, { $and: [acme, { category: "billing" }] }, acme);
      const [rawBest] = await openRawScores(tenants, query, acme);
      const [rawAll] = await openRawScores(tenants, query, undefined);
      expect(rawAll?.id).toBe("globex#refunds");
      expect(share).toBeCloseTo((raw?.score ?? 0) / (rawBest?.score ?? 1), 3);
      const modelled = scoreAnswerability(defaultAnswerabilityModel, billing?.answerability?.signals as AnswerabilitySignals);
      expect(billing?.answerability?.score).toBeCloseTo(modelled, 3);
      expect(billing?.score).toBeCloseTo(raw?.score ?? 0, 9);
      await port.close();
    });

    it("R12: a bad scopeFilter is refused with an error naming scopeFilter", async () => {
      const port = await openLocalSearchPort({ directory: tenants, minScore: 0 });
      await expect(
        port.search({ query, topK: 5, filter: { tenant: "acme" }, scopeFilter: { tenant: { $regex: "a" } } as never }),
      ).rejects.toThrow("scopeFilter.tenant.$regex");
      await expect(port.search({ query, topK: 5, scopeFilter: 7 as never })).rejects.toThrow("at scopeFilter:");
      await port.close();
    });
  });

  it("a Chinese word the index never saw is looked up by the known words inside it, so it neither misses them nor counts as unseen", async () => {
    const chinese = mkdtempSync(join(tmpdir(), "local-port-cjk-pieces-"));
    try {
      const writer = await openLocalSearchPort({ directory: chinese, mode: "write" });
      await writer.upsert([
        { id: "app#chunk-0", content: "手机应用离线时还能创建发票，联网后自动同步。", metadata: { docId: "app", chunkIndex: 0 } },
        { id: "tax#chunk-0", content: "税号可以在账户设置里修改。", metadata: { docId: "tax", chunkIndex: 0 } },
        { id: "team#chunk-0", content: "管理员可以邀请同事加入团队。", metadata: { docId: "team", chunkIndex: 0 } },
      ]);
      await writer.commit();
      await writer.close();
      const port = await openLocalSearchPort({ directory: chinese, minScore: 0 });
      // The query's segmentation keeps 开发票 whole; the document was cut into 创建 and 发票.
      const [hit] = await port.search({ query: "还能开发票", topK: 3 });
      expect(hit?.metadata["docId"]).toBe("app");
      expect(hit?.answerability?.signals["unseen"]).toBe(0);
      await port.close();
    } finally {
      rmSync(chinese, { recursive: true, force: true });
    }
  });

  it("R9: a model's referenceThreshold is kept when in 0..1, refused naming the field otherwise, and the port names it", async () => {
    const model = { kind: "logistic" as const, version: 7, bias: 0, weights: { lexical: 1 }, referenceThreshold: 0.2 };
    expect(parseAnswerabilityModel(model).referenceThreshold).toBe(0.2);
    expect(parseAnswerabilityModel({ ...model, referenceThreshold: undefined })).not.toHaveProperty("referenceThreshold");
    expect(() => parseAnswerabilityModel({ ...model, referenceThreshold: 1.5 })).toThrow("answerability.referenceThreshold");
    const named = await openLocalSearchPort({ directory, answerability: model });
    const unnamed = await openLocalSearchPort({ directory, answerability: { kind: "logistic", version: 7, bias: 0, weights: {} } });
    try {
      expect(named.referenceThreshold).toBe(0.2);
      expect(unnamed.referenceThreshold).toBeUndefined();
    } finally {
      await named.close();
      await unnamed.close();
    }
  });

  it("refuses model parameters so large they would overflow the score, and a score never becomes NaN", async () => {
    const huge = { kind: "logistic", version: 1, bias: 0, weights: { lexical: 1e308 } };
    expect(() => parseAnswerabilityModel(huge)).toThrow("answerability.weights.lexical");
    const extreme = { kind: "logistic" as const, version: 1, bias: 1000, weights: { lexical: 1000, coverage: -1000, terms: -1000 } };
    const port = await openLocalSearchPort({ directory, minScore: 0, answerability: extreme });
    for (const hit of await port.search({ query: "How do I track my parcel?", topK: 5 })) {
      expect(Number.isFinite(hit.score)).toBe(true);
    }
    await port.close();
  });

  it("R9: a model given as an option decides the judgement, never which hits come back; minScore cuts the fused score", async () => {
    const strict = await openLocalSearchPort({ directory, answerability: { kind: "logistic", version: 7, bias: -20, weights: {} } });
    const doubted = await strict.search({ query: "How do I track my parcel?", topK: 5 });
    expect(doubted.length).toBeGreaterThan(0);
    expect(doubted[0]?.answerability?.score).toBeLessThan(1e-6);
    expect(doubted[0]?.metadata["docId"]).toBe("shipping");
    await strict.close();
    const cut = await openLocalSearchPort({ directory, minScore: 0.99 });
    expect(await cut.search({ query: "How do I track my parcel?", topK: 5 })).toEqual([]);
    await cut.close();
    const lenient = await openLocalSearchPort({ directory, answerability: { kind: "logistic", version: 7, bias: 20, weights: {} } });
    const [hit] = await lenient.search({ query: "How do I track my parcel?", topK: 5 });
    expect(hit?.answerability?.score).toBeCloseTo(1, 6);
    expect(hit?.answerability?.model).toBe("answerability-logistic@7");
    await lenient.close();
  });

  it("adds each interaction weight times the product of its two signals", () => {
    const signals = Object.fromEntries(answerabilitySignalNames.map((name) => [name, 0.5])) as AnswerabilitySignals;
    const model = parseAnswerabilityModel({
      kind: "logistic",
      version: 1,
      bias: -1,
      weights: { lexical: 2 },
      interactions: { "lexical*coverage": 8 },
    });
    expect(model.interactions).toEqual({ "lexical*coverage": 8 });
    expect(scoreAnswerability(model, signals)).toBeCloseTo(1 / (1 + Math.exp(-(-1 + 2 * 0.5 + 8 * 0.25))), 12);
    expect(interactionPairs()).toHaveLength((answerabilitySignalNames.length * (answerabilitySignalNames.length - 1)) / 2);
  });

  it.each([
    [{ kind: "linear", version: 1, bias: 0, weights: {} }, "answerability.kind"],
    [{ kind: "logistic", version: 1, bias: Number.NaN, weights: {} }, "answerability.bias"],
    [{ kind: "logistic", version: 1, bias: 0, weights: { loudness: 1 } }, "answerability.weights"],
    [{ kind: "logistic", version: 1, bias: 0, weights: { lexical: "high" } }, "answerability.weights.lexical"],
    [{ kind: "logistic", bias: 0, weights: {} }, "answerability.version"],
    [
      { kind: "logistic", version: 1, bias: 0, weights: {}, interactions: { "lexical*loudness": 1 } },
      "answerability.interactions.lexical*loudness",
    ],
    [
      { kind: "logistic", version: 1, bias: 0, weights: {}, interactions: { "coverage*lexical": 1 } },
      "answerability.interactions.coverage*lexical",
    ],
    [
      { kind: "logistic", version: 1, bias: 0, weights: {}, interactions: { "lexical*coverage": 1e9 } },
      "answerability.interactions.lexical*coverage",
    ],
    ["steep", "answerability"],
  ])("refuses the answerability model %j with an error naming %s", async (answerability, key) => {
    await expect(openLocalSearchPort({ directory, answerability: answerability as never })).rejects.toMatchObject({ key });
    expect(() => parseAnswerabilityModel(answerability)).toThrow(key);
  });
});

/** The top hits by fused score, without the answerability model. */
async function openRawScores(directory: string, query: string, filter: MetadataFilter | undefined, scopeFilter?: MetadataFilter) {
  const port = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), minScore: 0, answerability: false });
  try {
    return await port.search({
      query,
      topK: 5,
      ...(filter === undefined ? {} : { filter }),
      ...(scopeFilter === undefined ? {} : { scopeFilter }),
    });
  } finally {
    await port.close();
  }
}
