import { readFileSync } from "node:fs";
import { ConfigurationError, LookupKnowledgeError } from "@lookup-knowledge/core";
import { Embeddings } from "@langchain/core/embeddings";
import { describe, expect, it } from "vitest";
import { createOfflineEmbeddings } from "./create-offline-embeddings.js";
import { describeEmbedder } from "./embedder-identity.js";
import { pinnedGlossTableSha256 } from "./gloss-vectors.js";
import { OfflineEmbeddings, pinnedWordVectorBlocksSha256, pinnedWordVectorsSha256 } from "./offline-embeddings.js";
import { loadWordTable } from "./load-word-table.js";

const embeddings = new OfflineEmbeddings();

function cosine(left: number[], right: number[]): number {
  let dot = 0;
  left.forEach((value, position) => {
    dot += value * (right[position] as number);
  });
  return dot;
}

function norm(vector: number[]): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

async function queryDocumentCosine(query: string, document: string, embedder = embeddings): Promise<number> {
  const [documentVector] = await embedder.embedDocuments([document]);
  return cosine(await embedder.embedQuery(query), documentVector as number[]);
}

describe("OfflineEmbeddings", () => {
  it("declares its identity: id, version 2 and dimension 256 + 100 by default", () => {
    expect(embeddings.identity).toEqual({ id: "lookup-knowledge/offline-hash-glove", version: "2", dimension: 356 });
    expect(describeEmbedder(embeddings)).toEqual(embeddings.identity);
  });

  it("changes the version and dimension when options change the vectors", () => {
    const wider = new OfflineEmbeddings({ hashDimension: 512 });
    expect(wider.identity.dimension).toBe(612);
    expect(wider.identity.version).toBe("2;hashDimension=512;lexicalWeight=0.5");
    const lexical = new OfflineEmbeddings({ lexicalWeight: 0.8 });
    expect(lexical.identity.dimension).toBe(356);
    expect(lexical.identity.version).toBe("2;hashDimension=256;lexicalWeight=0.8");
    expect(new OfflineEmbeddings({ hashDimension: 256, lexicalWeight: 0.5 }).identity.version).toBe("2");
    // Without Chinese glosses the vectors are version 1's, and so is the identity.
    expect(new OfflineEmbeddings({ chineseGlosses: false }).identity.version).toBe("1");
    expect(new OfflineEmbeddings({ chineseGlosses: false, lexicalWeight: 0.8 }).identity.version).toBe(
      "1;hashDimension=256;lexicalWeight=0.8",
    );
  });

  it("is built on the committed word and gloss tables (a rebuilt table needs a new version)", () => {
    const manifest = JSON.parse(readFileSync(new URL("../data/word-table.json", import.meta.url), "utf8")) as {
      files: Record<string, { sha256: string }>;
    };
    expect(manifest.files["word-vectors.bin"]?.sha256).toBe(pinnedWordVectorsSha256);
    // Issue 36 item 5: the blocks it is checked by, as they are read, are that file's.
    expect(loadWordTable().vectorsBlocksSha256).toBe(pinnedWordVectorBlocksSha256);
    const glosses = JSON.parse(readFileSync(new URL("../data/gloss-table.json", import.meta.url), "utf8")) as {
      files: Record<string, { sha256: string }>;
      wordTable: Record<string, string>;
    };
    expect(glosses.files["glosses.bin"]?.sha256).toBe(pinnedGlossTableSha256["glosses.bin"]);
    expect(glosses.files["gloss-words.txt"]?.sha256).toBe(pinnedGlossTableSha256["gloss-words.txt"]);
    expect(glosses.files["traditional-characters.txt"]?.sha256).toBe(pinnedGlossTableSha256["traditional-characters.txt"]);
    expect(glosses.wordTable["words.txt"]).toBe(manifest.files["words.txt"]?.sha256);
  });

  it("gives vectors of identity.dimension numbers, of unit length", async () => {
    const texts = ["How do I configure rate limits?", "网关限流插件配置", "a", "Kubernetes 集群 scaling", "x".repeat(5_000)];
    const vectors = [...(await embeddings.embedDocuments(texts)), ...(await Promise.all(texts.map((text) => embeddings.embedQuery(text))))];
    for (const vector of vectors) {
      expect(vector).toHaveLength(embeddings.identity.dimension);
      expect(vector.every(Number.isFinite)).toBe(true);
      expect(norm(vector)).toBeCloseTo(1, 10);
    }
    const wider = new OfflineEmbeddings({ hashDimension: 1024 });
    expect(await wider.embedQuery("rate limits")).toHaveLength(1124);
  });

  it("refuses a text that is not a string with invalid_embedding_input, naming what it got", async () => {
    const embeddings = createOfflineEmbeddings();
    const refusal = await embeddings.embedQuery(42 as unknown as string).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(LookupKnowledgeError.isInstance(refusal) && refusal.code).toBe("invalid_embedding_input");
    expect((refusal as Error).message).toMatch(/text must be a string \(got 42\)/);
  });

  it("is deterministic, across calls and instances", async () => {
    const text = "Throttle API traffic: 100 requests per second per tenant";
    const first = await embeddings.embedQuery(text);
    expect(await embeddings.embedQuery(text)).toEqual(first);
    expect(await new OfflineEmbeddings().embedQuery(text)).toEqual(first);
    expect(await embeddings.embedDocuments([text, text])).toEqual([
      await embeddings.embedDocuments([text]).then((vectors) => vectors[0]),
      await embeddings.embedDocuments([text]).then((vectors) => vectors[0]),
    ]);
  });

  it("issue 14: keeps the features of usual words between texts, not those of very long ones, with the same vectors", async () => {
    const embedder = new OfflineEmbeddings();
    const cached = (embedder as unknown as { features: Map<string, unknown> }).features;
    const long = "q".repeat(200_000);
    const text = `rate limits ${long} per consumer`;
    const first = await embedder.embedDocuments([text]);
    expect([...cached.keys()].every((word) => word.length <= 64)).toBe(true);
    expect(cached.size).toBeGreaterThan(0);
    expect(await embedder.embedDocuments([text])).toEqual(first);
    expect(await new OfflineEmbeddings().embedDocuments([text])).toEqual(first);
  });

  it("vectors of English text stay those of version 1 (changing them needs a new version)", async () => {
    const vector = await embeddings.embedQuery("Rate limiting requests per second");
    expect(vector.filter((value) => Math.abs(value) > 1e-12)).toHaveLength(109);
    expect(vector[11]).toBeCloseTo(-0.244132, 6);
    expect(vector[52]).toBeCloseTo(0.154049, 6);
    expect(vector[54]).toBeCloseTo(0.378296, 6);
    expect(vector[256]).toBeCloseTo(0.032789, 6);
    expect(vector[355]).toBeCloseTo(-0.121402, 6);
  });

  it("embeds a query with each distinct term once, documents with sublinear term frequency", async () => {
    const repeated = "cache cache cache invalidation";
    const [document] = await embeddings.embedDocuments([repeated]);
    const query = await embeddings.embedQuery(repeated);
    expect(query).not.toEqual(document);
    // A query ignores how often a term occurs: two or three times give the same vector.
    expect(query).toEqual(await embeddings.embedQuery("cache cache invalidation"));
    expect(await embeddings.embedDocuments(["cache cache invalidation"])).not.toEqual([document]);
    // A document leans towards its repeated term, but less than three times as much.
    const [cacheOnly] = await embeddings.embedDocuments(["cache"]);
    expect(cosine(document as number[], cacheOnly as number[])).toBeGreaterThan(cosine(query, cacheOnly as number[]));
    // Without repetition both give the same vector.
    expect(await embeddings.embedDocuments(["cache invalidation"])).toEqual([await embeddings.embedQuery("cache invalidation")]);
  });

  it("scores semantically close texts above unrelated ones", async () => {
    const query = "rate limiting requests per second";
    const close = await queryDocumentCosine(query, "throttle traffic");
    const unrelated = await queryDocumentCosine(query, "bake a chocolate cake");
    expect(close).toBeGreaterThan(unrelated);
    for (const [text, near, far] of [
      ["how do I reset my password", "recover account login credentials", "the weather in paris is sunny"],
      ["invoice payment failed", "billing error when charging the credit card", "install the kubernetes cluster"],
      ["network latency is high", "slow connection and packet delay", "she painted a portrait"],
    ] as const) {
      expect(await queryDocumentCosine(text, near)).toBeGreaterThan((await queryDocumentCosine(text, far)) + 0.1);
    }
  });

  it("matches word forms through stemming", async () => {
    expect(await queryDocumentCosine("configuring limits", "configure the limit")).toBeGreaterThan(
      await queryDocumentCosine("configuring limits", "delete the account"),
    );
  });

  it("gives CJK text lexical features, and overlapping CJK texts are closer", async () => {
    const query = await embeddings.embedQuery("网关限流插件配置");
    const lexical = query.slice(0, embeddings.hashDimension);
    expect(lexical.some((value) => value !== 0)).toBe(true);
    const [overlapping, unrelated] = await embeddings.embedDocuments(["如何配置网关的限流", "今天天气很好"]);
    expect(cosine(query, overlapping as number[])).toBeGreaterThan(0.3);
    expect(cosine(query, overlapping as number[])).toBeGreaterThan(cosine(query, unrelated as number[]) + 0.3);
  });

  it("gives empty and punctuation-only text one fixed unit vector instead of zeros or NaN", async () => {
    const empty = await embeddings.embedQuery("");
    expect(empty).toHaveLength(356);
    expect(empty.every(Number.isFinite)).toBe(true);
    expect(norm(empty)).toBeCloseTo(1, 12);
    expect(empty.filter((value) => value !== 0)).toEqual([1]);
    expect(await embeddings.embedQuery("  ?! -- ")).toEqual(empty);
    expect(await embeddings.embedDocuments(["", "\n"])).toEqual([empty, empty]);
    expect(Math.abs(cosine(empty, await embeddings.embedQuery("rate limits")))).toBeLessThan(0.5);
  });

  it("uses only the lexical part when no word is in the table, and only word vectors at lexicalWeight 0", async () => {
    const unknown = await embeddings.embedQuery("zxqvbn qqzzx");
    expect(unknown.slice(256).every((value) => value === 0)).toBe(true);
    expect(norm(unknown)).toBeCloseTo(1, 10);
    const denseOnly = await new OfflineEmbeddings({ lexicalWeight: 0 }).embedQuery("rate limits");
    expect(denseOnly.slice(0, 256).every((value) => value === 0)).toBe(true);
    const lexicalOnly = await new OfflineEmbeddings({ lexicalWeight: 1 }).embedQuery("rate limits");
    expect(lexicalOnly.slice(256).every((value) => value === 0)).toBe(true);
  });

  it("makes lexicalWeight the share of the cosine that comes from the lexical part", async () => {
    const left = "connection pool exhausted";
    const right = "database connection timeout";
    const mixed = await queryDocumentCosine(left, right, new OfflineEmbeddings({ lexicalWeight: 0.3 }));
    const lexical = await queryDocumentCosine(left, right, new OfflineEmbeddings({ lexicalWeight: 1 }));
    const dense = await queryDocumentCosine(left, right, new OfflineEmbeddings({ lexicalWeight: 0 }));
    expect(mixed).toBeCloseTo(0.3 * lexical + 0.7 * dense, 10);
  });

  it("refuses bad options with a ConfigurationError naming the option", () => {
    for (const hashDimension of [0, 8, 100.5, 100_000, Number.NaN]) {
      expect(() => new OfflineEmbeddings({ hashDimension })).toThrow(ConfigurationError);
    }
    for (const lexicalWeight of [-0.1, 1.5, Number.NaN]) {
      expect(() => new OfflineEmbeddings({ lexicalWeight })).toThrow(/lexicalWeight/);
    }
    expect(() => new OfflineEmbeddings({ hashDimension: 7 })).toThrow(/hashDimension=7/);
    expect(() => new OfflineEmbeddings({ chineseGlosses: "yes" as unknown as boolean })).toThrow(/chineseGlosses/);
  });

  it("refuses a text that is not a string", async () => {
    await expect(embeddings.embedQuery(42 as unknown as string)).rejects.toThrow(/must be a string/);
  });

  it("works through the LangChain Embeddings API", async () => {
    const embedder: Embeddings = createOfflineEmbeddings();
    expect(embedder).toBeInstanceOf(Embeddings);
    expect(embedder).toBeInstanceOf(OfflineEmbeddings);
    const texts = ["Rate limits protect the API.", "限流保护接口", "Bake the cake for 30 minutes."];
    const vectors = await embedder.embedDocuments(texts);
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) expect(vector).toHaveLength(356);
    expect(await embedder.embedDocuments([])).toEqual([]);
    const query = await embedder.embedQuery("api throttling");
    const ranked = vectors.map((vector, position) => ({ position, score: cosine(query, vector) }));
    ranked.sort((left, right) => right.score - left.score);
    expect(ranked[0]?.position).toBe(0);
  });

  it("createOfflineEmbeddings passes its options on", () => {
    expect(createOfflineEmbeddings({ hashDimension: 128 }).identity.dimension).toBe(228);
  });
});
