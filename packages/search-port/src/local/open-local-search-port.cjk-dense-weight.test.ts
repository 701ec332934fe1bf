import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { lexicalTerms } from "@lookup-knowledge/text";
import { openLocalSearchPort } from "./open-local-search-port.js";
import { queryDenseWeight } from "./dense/query-dense-weight.js";

// Chinese and English records with different dense and lexical standings, so that the weight
// of the dense part shows in the scores.
const records: KnowledgeRecord[] = [
  { id: "zh-a#chunk-0", content: "限流插件按照请求的来源地址计数，超过阈值时拒绝请求。", metadata: { docId: "zh-a", chunkIndex: 0 } },
  { id: "zh-b#chunk-0", content: "集群中的节点共享限流计数器，使用 Redis 保存状态。", metadata: { docId: "zh-b", chunkIndex: 0 } },
  { id: "zh-c#chunk-0", content: "路由可以绑定多个插件，插件按照优先级执行。", metadata: { docId: "zh-c", chunkIndex: 0 } },
  {
    id: "en-a#chunk-0",
    content: "The rate limiting plugin counts requests per client address.",
    metadata: { docId: "en-a", chunkIndex: 0 },
  },
  { id: "en-b#chunk-0", content: "Cluster nodes share the limit counter stored in Redis.", metadata: { docId: "en-b", chunkIndex: 0 } },
  { id: "en-c#chunk-0", content: "A route binds several plugins that run by priority.", metadata: { docId: "en-c", chunkIndex: 0 } },
];

let directory: string;
beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "local-port-cjk-weight-"));
  const writer = await openLocalSearchPort({ directory, mode: "write", embeddings: createOfflineEmbeddings() });
  await writer.upsert(records);
  await writer.commit();
  await writer.close();
});
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

async function scores(options: { denseWeight?: number; cjkDenseWeight?: number }, query: string): Promise<Record<string, number>> {
  const port = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), answerability: false, ...options });
  try {
    const hits = await port.search({ query, topK: 10 });
    return Object.fromEntries(hits.map((hit) => [hit.id, hit.score]));
  } finally {
    await port.close();
  }
}

describe("openLocalSearchPort: the dense weight of CJK queries", () => {
  const chinese = "限流计数器保存在哪里";
  const english = "where is the limit counter stored";

  it("ranks a Chinese query with cjkDenseWeight and an English one with denseWeight", async () => {
    const lexicalChinese = await scores({ denseWeight: 0 }, chinese);
    const lexicalEnglish = await scores({ denseWeight: 0 }, english);
    // cjkDenseWeight 0: the Chinese query is ranked by BM25 alone, the English one is not.
    expect(await scores({ denseWeight: 0.5, cjkDenseWeight: 0 }, chinese)).toEqual(lexicalChinese);
    expect(await scores({ denseWeight: 0.5, cjkDenseWeight: 0 }, english)).not.toEqual(lexicalEnglish);
    // And the other way round.
    expect(await scores({ denseWeight: 0, cjkDenseWeight: 0.5 }, english)).toEqual(lexicalEnglish);
    expect(await scores({ denseWeight: 0, cjkDenseWeight: 0.5 }, chinese)).not.toEqual(lexicalChinese);
  });

  it("ranks a query of both scripts with the two weights mixed by its share of CJK terms", async () => {
    const mixed = "Redis 限流计数器 cluster";
    const weights = { denseWeight: 0.6, cjkDenseWeight: 0 };
    const mixedWeight = queryDenseWeight(mixed, lexicalTerms(mixed), weights);
    expect(mixedWeight).toBeGreaterThan(0);
    expect(mixedWeight).toBeLessThan(0.6);
    expect(await scores(weights, mixed)).toEqual(await scores({ denseWeight: mixedWeight }, mixed));
    expect(await scores(weights, mixed)).not.toEqual(await scores({ denseWeight: 0.6 }, mixed));
  });

  it("keeps one weight for every query when only denseWeight is given", async () => {
    expect(await scores({ denseWeight: 0.5 }, chinese)).toEqual(await scores({ denseWeight: 0.5, cjkDenseWeight: 0.5 }, chinese));
  });

  it("loads the vectors of a reader whose denseWeight is 0 when CJK queries still weigh the dense part", async () => {
    const lexical = await scores({ denseWeight: 0 }, chinese);
    expect(await scores({ denseWeight: 0, cjkDenseWeight: 1 }, chinese)).not.toEqual(lexical);
  });
});
