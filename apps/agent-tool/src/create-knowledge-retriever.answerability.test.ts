import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultRagConfig, emptyL0Hints, type SearchHit } from "@lookup-knowledge/core";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import type { L0Index } from "@lookup-knowledge/l0-hints";
import type { KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import { defaultAnswerabilityModel, openLocalSearchPort, type LocalSearchPort } from "@lookup-knowledge/search-port/local";
import { buildToolInvocationRecord } from "@lookup-knowledge/trace-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKnowledgeRetriever } from "./create-knowledge-retriever.js";

// A small knowledge base written for this test, searched through the real local port.
const documents: Array<[docId: string, title: string, content: string]> = [
  [
    "webhooks",
    "Webhook signatures",
    "Every webhook request carries a signature header computed with the endpoint's signing secret; rotate the secret from the developer settings page.",
  ],
  ["exports", "Data exports", "Workspace owners can export all projects as a ZIP archive of JSON files from the administration console."],
  [
    "sso",
    "Single sign-on",
    "SAML single sign-on is configured per workspace: upload the identity provider metadata and map the email attribute.",
  ],
];

let directory: string;
let port: LocalSearchPort;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "retriever-answerability-"));
  const writer = await openLocalSearchPort({ directory, mode: "write", embeddings: createOfflineEmbeddings() });
  await writer.upsert(
    documents.map(([docId, title, content]) => ({
      id: `${docId}#chunk-0`,
      content,
      metadata: { docId, chunkIndex: 0, title, source: `${docId}.md` },
    })),
  );
  await writer.commit();
  await writer.close();
  // The default port: an out-of-scope question still gets hits, which the gate judges.
  port = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings() });
});

afterAll(async () => {
  await port.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("the gate reads the local port's answerability score", () => {
  it("R9: an answerable question is found, and its attempt names the model and the signals behind its top score", async () => {
    const retriever = createKnowledgeRetriever({ searchPort: port });
    const result = await retriever.lookup("How do I rotate the webhook signing secret?");
    expect(result.found).toBe(true);
    const [attempt] = result.retrievalTrace.attempts;
    expect(attempt?.outcome).toBe("usable");
    expect(attempt?.answerability?.model).toMatch(/^answerability-logistic@\d+$/);
    expect(attempt?.answerability?.score).toBe(attempt?.topScore);
    expect(attempt?.answerability?.signals).toMatchObject({
      lexical: expect.any(Number),
      coverage: expect.any(Number),
      margin: expect.any(Number),
    });
  });

  it("R11: an out-of-scope question is refused as low quality, and the trace record keeps the signals that judged it", async () => {
    const retriever = createKnowledgeRetriever({ searchPort: port });
    const result = await retriever.lookup("Which settings page shows the monthly electricity bill of the office?");
    expect(result.found).toBe(false);
    const [attempt] = result.retrievalTrace.attempts;
    expect(attempt?.outcome).toBe("low_quality");
    expect(attempt?.answerability?.score).toBeLessThan(retriever.config.referenceThreshold);
    const record = buildToolInvocationRecord({ result, toolName: "lookup_knowledge", startedAt: new Date(), durationMs: 1 });
    expect(record.retrievalDetails.attempts[0]?.answerability).toEqual(attempt?.answerability);
  });
});

/** A port whose first hit ranks high but whose judgement says it does not answer. */
const judgedPort = (judged: number, signals: Record<string, number> = {}): KnowledgeSearchPort => ({
  async search() {
    return [
      {
        id: "webhooks#chunk-0",
        content: "Rotate the webhook signing secret from the developer settings page.",
        metadata: { docId: "webhooks", chunkIndex: 0, source: "webhooks.md" },
        score: 0.92,
        answerability: { score: judged, model: "answerability-logistic@1", signals: { lexical: 0.5, ...signals } },
      },
      {
        id: "exports#chunk-0",
        content: "Workspace owners can export all projects.",
        metadata: { docId: "exports", chunkIndex: 0, source: "exports.md" },
        score: 0.4,
      },
    ];
  },
});

describe("ranking and answerability apart", () => {
  it("R9: the gate compares the port's judgement with the threshold, not the ranking score of the best block", async () => {
    // The best block's ranking score (0.92) would pass; the judgement (0.03) is below the threshold
    // (this port names none, so core's default applies).
    const refused = await createKnowledgeRetriever({ searchPort: judgedPort(0.03) }).lookup("How do I rotate the webhook secret?");
    expect(refused.found).toBe(false);
    const [attempt] = refused.retrievalTrace.attempts;
    expect(attempt?.outcome).toBe("low_quality");
    expect(attempt?.candidateCount).toBe(2);
    expect(attempt?.topScore).toBe(0.03);
    const found = await createKnowledgeRetriever({ searchPort: judgedPort(0.9) }).lookup("How do I rotate the webhook secret?");
    expect(found.found).toBe(true);
    // The blocks keep their ranking scores; the judgement is the attempt's top score.
    expect(found.evidenceBlocks.map((block) => block.score)).toEqual([0.92, 0.4]);
    expect(found.retrievalTrace.attempts[0]?.topScore).toBe(0.9);
    expect(found.relevanceLevel).toBe("high");
  });

  it("R22: evidence the port judged unlikely to answer comes back with relevance low and a completeness note that says it may not answer", async () => {
    const result = await createKnowledgeRetriever({ searchPort: judgedPort(0.4) }).lookup("How do I rotate the webhook secret?");
    expect(result.found).toBe(true);
    expect(result.relevanceLevel).toBe("low");
    expect(result.completenessHint.status).toBe("partial");
    expect(result.completenessHint.notes[0]).toMatch(/may not answer the question/);
  });

  it("R9: an L0-filtered attempt that left a better match of the caller's scope out (filterShare below 0.95) is low quality, however sure its judgement", async () => {
    const l0Index: L0Index = { size: 1, match: () => ({ ...emptyL0Hints(), domains: ["webhooks"], keywords: ["webhook secret"] }) };
    const steered = (share: number) =>
      createKnowledgeRetriever({ searchPort: judgedPort(0.9, { filterShare: share }), l0Index }).lookup(
        "How do I rotate the webhook secret?",
      );
    const missed = await steered(0.6);
    expect(missed.retrievalTrace.attempts.map((attempt) => attempt.outcome)).toEqual(["low_quality", "usable"]);
    expect(missed.retrievalTrace.fallbackReason).toBe("filtered_vector_low_quality");
    // The trace records the share that refused it, for readers that must not re-derive the rule.
    expect(missed.retrievalTrace.attempts.map((attempt) => attempt.leftOutShare)).toEqual([0.6, undefined]);
    const kept = await steered(0.97);
    expect(kept.retrievalTrace.attempts.map((attempt) => attempt.outcome)).toEqual(["usable"]);
    expect(kept.retrievalTrace.attempts[0]?.leftOutShare).toBeUndefined();
    expect(kept.retrievalTrace.fallbackReason).toBeUndefined();
  });

  it("R11: a lookup refused for its filter's share and then failing says both, never that a passing score fell below the threshold", async () => {
    const l0Index: L0Index = { size: 1, match: () => ({ ...emptyL0Hints(), domains: ["webhooks"], keywords: ["webhook secret"] }) };
    let calls = 0;
    const searchPort: KnowledgeSearchPort = {
      async search(request) {
        calls += 1;
        if (calls > 1) throw new Error("index offline");
        return judgedPort(0.9, { filterShare: 0.6 }).search(request);
      },
    };
    const result = await createKnowledgeRetriever({ searchPort, l0Index }).lookup("How do I rotate the webhook secret?");
    expect(result.found).toBe(false);
    expect(result.retrievalTrace.attempts.map((attempt) => attempt.outcome)).toEqual(["low_quality", "error"]);
    expect(result.message).toMatch(/L0-filtered search left better matches out/);
    expect(result.message).toMatch(/Attempt 2 failed \(\w+\)\./);
    expect(result.message).not.toContain("index offline");
    expect(result.retrievalTrace.attempts[1]?.error?.message).toContain("index offline");
    expect(result.message).not.toMatch(/below the reference threshold/);
  });

  it("R9: through the real local port, a question the model doubts keeps its ranked hits in the trace (low quality, not no candidates)", async () => {
    const retriever = createKnowledgeRetriever({ searchPort: port });
    const result = await retriever.lookup("Which settings page shows the monthly electricity bill of the office?");
    const [attempt] = result.retrievalTrace.attempts;
    expect(attempt?.outcome).toBe("low_quality");
    expect(attempt?.candidateCount).toBeGreaterThan(0);
    expect(attempt?.answerability?.signals).toHaveProperty("coverage");
  });
});

describe("a caller filter (tenant) and the L0 filter, through the real local port", () => {
  // globex's record matches the question better than anything of acme's.
  const tenantDocuments: Array<[id: string, tenant: string, category: string, content: string]> = [
    [
      "globex#webhooks",
      "globex",
      "webhooks",
      "How do I rotate the webhook signing secret? Rotate the webhook signing secret from the developer settings page; every webhook request carries a signature header.",
    ],
    [
      "acme#webhooks",
      "acme",
      "webhooks",
      "Every webhook request carries a signature header computed with the signing secret; rotate the secret from the developer settings page.",
    ],
    [
      "acme#exports",
      "acme",
      "exports",
      "Workspace owners can export all projects as a ZIP archive from the developer settings page; the download link is signed.",
    ],
    [
      "acme#sso",
      "acme",
      "sso",
      "SAML single sign-on is configured per workspace: upload the identity provider metadata and map the email attribute.",
    ],
  ];
  let tenants: string;
  let tenantPort: LocalSearchPort;
  const question = "How do I rotate the webhook signing secret?";

  beforeAll(async () => {
    tenants = mkdtempSync(join(tmpdir(), "retriever-tenants-"));
    const writer = await openLocalSearchPort({ directory: tenants, mode: "write", embeddings: createOfflineEmbeddings() });
    await writer.upsert(
      tenantDocuments.map(([id, tenant, category, content]) => ({
        id,
        content,
        metadata: { docId: id.replace("#", "-"), chunkIndex: 0, title: category, source: `${id}.md`, tenant, category },
      })),
    );
    await writer.commit();
    await writer.close();
    tenantPort = await openLocalSearchPort({ directory: tenants, embeddings: createOfflineEmbeddings(), minScore: 0 });
  });

  afterAll(async () => {
    await tenantPort.close();
    rmSync(tenants, { recursive: true, force: true });
  });

  it("R12: a lookup with a tenant filter and no L0 hint is not penalised by another tenant's better match", async () => {
    const [best] = await tenantPort.search({ query: question, topK: 5 });
    expect(best?.id).toBe("globex#webhooks");
    const retriever = createKnowledgeRetriever({ searchPort: tenantPort });
    const result = await retriever.lookup(question, { filter: { tenant: "acme" } });
    expect(result.found).toBe(true);
    expect(result.retrievalTrace.attempts).toHaveLength(1);
    const [attempt] = result.retrievalTrace.attempts;
    expect(attempt?.outcome).toBe("usable");
    expect(attempt?.answerability?.signals).not.toHaveProperty("filterShare");
    expect(JSON.stringify(result)).not.toContain("globex");
  });

  it("R9: an L0 filter that leaves the best evidence of the caller's scope out triggers the unfiltered retry, which keeps the caller filter", async () => {
    // A stub whose hints hold under any caller filter (it admits every entry).
    const l0Index: L0Index = {
      size: 1,
      match: () => ({ ...emptyL0Hints(), domains: ["exports"], keywords: ["secret"] }),
      within: () => l0Index,
    };
    const retriever = createKnowledgeRetriever({ searchPort: tenantPort, l0Index });
    const result = await retriever.lookup(question, { filter: { tenant: "acme" } });
    const [first, retry] = result.retrievalTrace.attempts;
    expect(first?.filter).toEqual({ $and: [{ tenant: "acme" }, { category: { $eq: "exports" } }] });
    expect(first?.outcome).toBe("low_quality");
    const share = first?.answerability?.signals["filterShare"] ?? 1;
    expect(share).toBeLessThan(1);
    expect(retry?.filter).toEqual({ tenant: "acme" });
    expect(retry?.outcome).toBe("usable");
    expect(result.found).toBe(true);
    expect(JSON.stringify(result)).toContain("acme#webhooks");
    expect(JSON.stringify(result)).not.toContain("globex");
  });
});

describe("the operating point a judging port names (recall first, decision 0004)", () => {
  /** `judgedPort` naming the threshold its judgement is read at. */
  const namingPort = (judged: number, referenceThreshold: number): KnowledgeSearchPort => ({ ...judgedPort(judged), referenceThreshold });

  it("R9: the local port names its model's threshold and the retriever reads the judgement at it; a port without a model names none", async () => {
    expect(port.referenceThreshold).toBe(defaultAnswerabilityModel.referenceThreshold);
    expect(createKnowledgeRetriever({ searchPort: port }).config.referenceThreshold).toBe(defaultAnswerabilityModel.referenceThreshold);
    const plain = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), answerability: false });
    try {
      expect(plain.referenceThreshold).toBeUndefined();
      expect(createKnowledgeRetriever({ searchPort: plain }).config.referenceThreshold).toBe(defaultRagConfig.referenceThreshold);
    } finally {
      await plain.close();
    }
  });

  it("R9, R22: a judgement between the port's threshold and 0.5 is found with relevance low and the note, not refused", async () => {
    const result = await createKnowledgeRetriever({ searchPort: namingPort(0.2, 0.07) }).lookup("How do I rotate the webhook secret?");
    expect(result.found).toBe(true);
    expect(result.retrievalTrace.referenceThreshold).toBe(0.07);
    expect(result.relevanceLevel).toBe("low");
    expect(result.completenessHint.notes[0]).toMatch(/may not answer the question/);
    const below = await createKnowledgeRetriever({ searchPort: namingPort(0.05, 0.07) }).lookup("How do I rotate the webhook secret?");
    expect(below.found).toBe(false);
  });

  it("R9: when a judging port's judged hit is refused as malformed, its other hits' ranking scores never pass its threshold", async () => {
    // With a threshold of its own, and without one (a model fitted before models named theirs).
    for (const referenceThreshold of [0.07, undefined]) {
      const searchPort: KnowledgeSearchPort = {
        ...(referenceThreshold === undefined ? {} : { referenceThreshold }),
        async search() {
          const [judged, other] = await judgedPort(0.9).search({ query: "q", topK: 2 });
          // The judged hit loses its content: the pipeline refuses it, and its judgement with it.
          return [{ ...judged, content: 42 } as unknown as SearchHit, other as SearchHit];
        },
      };
      const result = await createKnowledgeRetriever({ searchPort }).lookup("How do I rotate the webhook secret?");
      const [attempt] = result.retrievalTrace.attempts;
      expect(attempt?.rejectedHits).toHaveLength(1);
      expect(attempt?.candidateCount).toBe(1);
      expect(attempt?.topScore).toBe(0);
      expect(attempt?.outcome).toBe("low_quality");
      expect(result.found).toBe(false);
    }
  });

  it("a malformed first hit of a port that does not judge leaves the other hits' scores to decide", async () => {
    const searchPort: KnowledgeSearchPort = {
      async search() {
        const [judged, other] = await judgedPort(0.9).search({ query: "q", topK: 2 });
        // A port that judges nothing: its first hit carries no judgement.
        return [{ ...judged, answerability: undefined, content: 42 } as unknown as SearchHit, { ...(other as SearchHit), score: 0.9 }];
      },
    };
    const [attempt] = (await createKnowledgeRetriever({ searchPort }).lookup("How do I rotate the webhook secret?")).retrievalTrace
      .attempts;
    expect(attempt?.rejectedHits).toHaveLength(1);
    expect(attempt?.topScore).toBe(0.9);
  });

  it("a port that names a threshold outside 0..1 is refused naming the port, unless the settings set one", () => {
    for (const bad of [1.5, -0.1, Number.NaN]) {
      expect(() => createKnowledgeRetriever({ searchPort: namingPort(0.2, bad) })).toThrow(
        /search port names referenceThreshold .*; it must be a number in 0\.\.1/,
      );
      const settled = createKnowledgeRetriever({ searchPort: namingPort(0.2, bad), config: { "rag.reference-threshold": 0.3 } });
      expect(settled.config.referenceThreshold).toBe(0.3);
    }
  });

  it("R9: a rag.reference-threshold in the settings wins over the port's, as a flat key or a typed field", async () => {
    for (const config of [{ "rag.reference-threshold": 0.35 }, { referenceThreshold: 0.35 }]) {
      const retriever = createKnowledgeRetriever({ searchPort: namingPort(0.2, 0.07), config });
      expect(retriever.config.referenceThreshold).toBe(0.35);
      const result = await retriever.lookup("How do I rotate the webhook secret?");
      expect(result.found).toBe(false);
      expect(result.retrievalTrace.attempts[0]?.outcome).toBe("low_quality");
    }
  });
});
