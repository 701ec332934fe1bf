import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import type { LocalSearchPortOptions } from "./port/local-search-port-options.js";
import { build, open, useIndexFolder } from "./test/local-port-test-fixtures.js";
import { defaultApproximateCandidates } from "./port/local-search-port-options.js";
import { readLocalPortSettings } from "./port/read-local-port-settings.js";
import { random } from "./test/seeded-random-test-fixtures.js";

useIndexFolder();

const dimension = 48;
const identity = { id: "test/clustered", version: "1", dimension };

/**
 * A seeded clustered corpus: `count` records around `clusters` random centres (each record
 * its centre plus noise, so a cluster's members are near ties), with a few words of their
 * cluster and some shared ones; queries are perturbed centres with a cluster word. The
 * embedder looks vectors up by text.
 */
function clusteredCorpus(seed: number, count: number, clusters: number, queries: number) {
  const next = random(seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const unit = (vector: number[]) => {
    const norm = Math.hypot(...vector) || 1;
    return vector.map((value) => value / norm);
  };
  const centres = Array.from({ length: clusters }, () => unit(Array.from({ length: dimension }, gaussian)));
  const vectors = new Map<string, number[]>();
  const records: KnowledgeRecord[] = [];
  const shared = ["alpha", "beta", "gamma", "delta", "omega"];
  for (let index = 0; index < count; index += 1) {
    const cluster = Math.floor(next() * clusters);
    const centre = centres[cluster] as number[];
    const content = `record ${index} topic${cluster} ${shared[Math.floor(next() * shared.length)]} word${Math.floor(next() * 200)}`;
    vectors.set(content, unit(centre.map((value) => value + 0.12 * gaussian())));
    records.push({ id: `r${String(index).padStart(5, "0")}#chunk-0`, content, metadata: { docId: `r${index}`, chunkIndex: 0 } });
  }
  const questions: string[] = [];
  for (let index = 0; index < queries; index += 1) {
    const cluster = Math.floor(next() * clusters);
    const text = `question ${index} topic${cluster} ${shared[index % shared.length]}`;
    vectors.set(text, unit((centres[cluster] as number[]).map((value) => value + 0.25 * gaussian())));
    questions.push(text);
  }
  const lookup = (text: string): number[] => {
    const vector = vectors.get(text);
    if (vector === undefined) throw new Error(`no vector for ${text}`);
    return vector;
  };
  const embeddings = {
    identity,
    embedQuery: async (text: string) => lookup(text),
    embedDocuments: async (texts: string[]) => texts.map(lookup),
  };
  return { records, questions, embeddings: embeddings as unknown as EmbeddingsInterface };
}

const dense = { denseWeight: 1, denseFloor: 0 };
const hybrid = { denseWeight: 0.3 };

describe("issue 14: approximate dense search (option approximateDense)", () => {
  it.each([
    [{ approximateDense: "on" }, "approximateDense", /true, false or \{ candidates/],
    [{ approximateDense: { candidates: 0 } }, "approximateDense.candidates", /whole number of candidates, 1 or more/],
    [{ approximateDense: { candidates: 2.5 } }, "approximateDense.candidates", /whole number/],
    [{ approximateDense: { candidates: "4000" } }, "approximateDense.candidates", /whole number/],
    [{ approximateDense: { candidates: 10, probes: 2 } }, "approximateDense", /./],
  ])("issue 14: a bad approximateDense %j names its key %s", (options, key, reason) => {
    expect(() => readLocalPortSettings({ directory: "index", ...options } as unknown as LocalSearchPortOptions)).toThrow(
      expect.objectContaining({ name: "ConfigurationError", key, message: expect.stringMatching(reason) }),
    );
  });

  it("issue 14: approximateDense is off by default and false turns it off; true and {} take the default candidates", () => {
    expect(readLocalPortSettings({ directory: "index" }).approximateCandidates).toBeUndefined();
    expect(readLocalPortSettings({ directory: "index", approximateDense: true }).approximateCandidates).toBe(defaultApproximateCandidates);
    expect(readLocalPortSettings({ directory: "index", approximateDense: {} }).approximateCandidates).toBe(defaultApproximateCandidates);
    expect(readLocalPortSettings({ directory: "index", approximateDense: false }).approximateCandidates).toBeUndefined();
    expect(readLocalPortSettings({ directory: "index", approximateDense: { candidates: 4000 } }).approximateCandidates).toBe(4000);
  });

  it("issue 14: with candidates >= the record count the approximate top 10 is the exact top 10, scores included", async () => {
    const { records, questions, embeddings } = clusteredCorpus(7, 400, 12, 30);
    await (await build(records, { embeddings })).close();
    for (const mode of [dense, hybrid]) {
      // With the answerability model (the default) and without it.
      for (const model of [{ answerability: false as const }, {}]) {
        const exact = await open({ embeddings, minScore: 0, ...model, ...mode });
        const approximate = await open({ embeddings, minScore: 0, ...model, ...mode, approximateDense: { candidates: 400 } });
        for (const query of questions) {
          const expected = await exact.search({ query, topK: 10 });
          expect(expected).toHaveLength(10);
          expect(await approximate.search({ query, topK: 10 })).toEqual(expected);
        }
      }
    }
  });

  it("issue 14: every returned score is the exact fused score of its record, with few candidates too", async () => {
    const { records, questions, embeddings } = clusteredCorpus(8, 600, 15, 30);
    await (await build(records, { embeddings })).close();
    for (const mode of [dense, hybrid]) {
      const exact = await open({ embeddings, minScore: 0, answerability: false, ...mode });
      const approximate = await open({ embeddings, minScore: 0, answerability: false, ...mode, approximateDense: { candidates: 20 } });
      for (const query of questions) {
        // Every record's exact fused score, by id.
        const all = new Map((await exact.search({ query, topK: records.length })).map((hit) => [hit.id, hit.score]));
        const hits = await approximate.search({ query, topK: 10 });
        expect(hits.length).toBeGreaterThan(0);
        for (const hit of hits) expect(hit.score).toBe(all.get(hit.id as string));
      }
    }
  });

  it("issue 14: a writer's approximate search sees its own upserts (a new sketch per state)", async () => {
    const { records, embeddings } = clusteredCorpus(10, 300, 10, 0);
    const writer = await open({
      mode: "write",
      embeddings,
      minScore: 0,
      answerability: false,
      ...dense,
      approximateDense: { candidates: 50 },
    });
    await writer.upsert(records.slice(0, 200));
    const first = records[250] as KnowledgeRecord;
    expect((await writer.search({ query: first.content, topK: 300 })).map((hit) => hit.id)).not.toContain(first.id);
    await writer.upsert(records.slice(200));
    expect((await writer.search({ query: first.content, topK: 1 }))[0]?.id).toBe(first.id);
  });

  it("issue 14: recall@10 against exact search over a seeded clustered corpus stays above the measured bound", async () => {
    const { records, questions, embeddings } = clusteredCorpus(9, 4000, 40, 60);
    await (await build(records, { embeddings })).close();
    const exact = await open({ embeddings, minScore: 0, answerability: false, ...dense });
    const recallAt = async (candidates: number) => {
      const approximate = await open({ embeddings, minScore: 0, answerability: false, ...dense, approximateDense: { candidates } });
      let found = 0;
      for (const query of questions) {
        const expected = (await exact.search({ query, topK: 10 })).map((hit) => hit.id);
        const got = new Set((await approximate.search({ query, topK: 10 })).map((hit) => hit.id));
        found += expected.filter((id) => got.has(id)).length;
      }
      return found / (questions.length * 10);
    };
    // Measured (this seed): 0.888 at 100 of 4000 candidates, 0.953 at 200, 0.99 at 400; a
    // random choice of 100 would find 0.025.
    expect(await recallAt(100)).toBeGreaterThanOrEqual(0.85);
    expect(await recallAt(200)).toBeGreaterThanOrEqual(0.93);
  });
});
