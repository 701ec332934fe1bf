import { describe, expect, it } from "vitest";
import { OfflineEmbeddings } from "./offline-embeddings.js";

const withGlosses = new OfflineEmbeddings();
const withoutGlosses = new OfflineEmbeddings({ chineseGlosses: false });

function cosine(left: number[], right: number[]): number {
  return left.reduce((sum, value, position) => sum + value * (right[position] as number), 0);
}

async function similarity(embedder: OfflineEmbeddings, query: string, document: string): Promise<number> {
  const [vector] = await embedder.embedDocuments([document]);
  return cosine(await embedder.embedQuery(query), vector as number[]);
}

describe("OfflineEmbeddings: Chinese words through their English glosses", () => {
  it("gives a Chinese paraphrase that shares no word with a page a semantic match, which version 1 could not", async () => {
    const document = "网关限流插件的配置方法";
    const paraphrase = "如何限制请求速率"; // "how to limit the request rate": only 限 in common, no word
    expect(await similarity(withoutGlosses, paraphrase, document)).toBeCloseTo(0, 10);
    const related = await similarity(withGlosses, paraphrase, document);
    const unrelated = await similarity(withGlosses, "蛋糕烘焙的温度", document); // the temperature for baking a cake
    expect(related).toBeGreaterThan(0.1);
    expect(related).toBeGreaterThan(unrelated + 0.05);
  });

  it("puts Chinese and English text in one space: an English question finds its Chinese answer", async () => {
    const document = "数据库连接池耗尽时的排查方法"; // troubleshooting an exhausted database connection pool
    const question = await similarity(withGlosses, "database connection pool exhausted", document);
    expect(question).toBeGreaterThan(0.15);
    expect(question).toBeGreaterThan((await similarity(withGlosses, "bake a chocolate cake", document)) + 0.1);
    expect(await similarity(withoutGlosses, "database connection pool exhausted", document)).toBeCloseTo(0, 10);
  });

  it("reads traditional Chinese through the simplified forms of its characters", async () => {
    const simplified = "分布式事务的隔离级别"; // isolation levels of distributed transactions
    const traditional = "分散式交易的隔離級別"; // the same, in traditional characters and Taiwan's words
    expect(await similarity(withoutGlosses, traditional, simplified)).toBeCloseTo(0, 10);
    expect(await similarity(withGlosses, traditional, simplified)).toBeGreaterThan(0.3);
    // The same words in both scripts: the word-vector parts are equal, only the character pairs differ.
    const sameWords = await similarity(withGlosses, "數據庫連接池耗盡", "数据库连接池耗尽");
    expect(sameWords).toBeGreaterThan((await similarity(withoutGlosses, "數據庫連接池耗盡", "数据库连接池耗尽")) + 0.3);
  });

  it("keeps the lexical part of Chinese text as version 1 had it, and English vectors unchanged", async () => {
    const text = "网关限流插件配置";
    const [glossed] = await withGlosses.embedDocuments([text]);
    const [plain] = await withoutGlosses.embedDocuments([text]);
    // Version 1 has only the lexical part for Chinese; version 2 adds the word-vector part.
    expect((plain as number[]).slice(256).every((value) => value === 0)).toBe(true);
    expect((glossed as number[]).slice(256).some((value) => value !== 0)).toBe(true);
    const lexicalCosine = cosine((glossed as number[]).slice(0, 256), (plain as number[]).slice(0, 256));
    expect(lexicalCosine / Math.sqrt(withGlosses.lexicalWeight)).toBeCloseTo(1, 10);
    for (const english of ["Rate limiting requests per second", "connection pool"]) {
      expect(await withGlosses.embedQuery(english)).toEqual(await withoutGlosses.embedQuery(english));
    }
  });

  it("leaves stop words and characters the dictionary does not hold out, and is deterministic", async () => {
    // 的 and 了 are stop words: a text of stop words has no word-vector part.
    const stopOnly = await withGlosses.embedQuery("的了");
    expect(stopOnly.slice(256).every((value) => value === 0)).toBe(true);
    const once = await withGlosses.embedDocuments(["分布式事务的隔离级别", "读写分离"]);
    expect(await new OfflineEmbeddings().embedDocuments(["分布式事务的隔离级别", "读写分离"])).toEqual(once);
  });

  it("counts a Chinese word once in a query and sublinearly in a document, as English words", async () => {
    const repeated = "事务 事务 事务 隔离";
    expect(await withGlosses.embedQuery(repeated)).toEqual(await withGlosses.embedQuery("事务 隔离"));
    const [document] = await withGlosses.embedDocuments([repeated]);
    const [transaction] = await withGlosses.embedDocuments(["事务"]);
    expect(cosine(document as number[], transaction as number[])).toBeGreaterThan(
      cosine(await withGlosses.embedQuery(repeated), transaction as number[]),
    );
  });

  it("version 2 vectors of Chinese text stay the same (changing them needs a new version)", async () => {
    const vector = await withGlosses.embedQuery("分布式事务的隔离级别");
    expect(vector.filter((value) => Math.abs(value) > 1e-12)).toHaveLength(108);
    expect(vector[34]).toBeCloseTo(0.213201, 6);
    expect(vector[256]).toBeCloseTo(-0.062971, 6);
    expect(vector[300]).toBeCloseTo(0.033868, 6);
    expect(vector[355]).toBeCloseTo(-0.022471, 6);
  });
});
