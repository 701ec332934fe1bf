import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { describe, expect, it, vi } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { wasm } from "./dense/kernels/int8-dot-kernel.js";
import { build, open, useIndexFolder } from "./test/local-port-test-fixtures.js";
import { random } from "./test/seeded-random-test-fixtures.js";

useIndexFolder();

const dimension = 48;

/**
 * `count` records, each a seeded unit vector and words of which "common" is in every record
 * (so a query holding it sums postings over every slot: the lexical sums' kernel runs), and
 * queries of the same kind. More than 4,096 records, so the length norms' kernel runs too.
 */
function corpus(seed: number, count: number, queries: number) {
  const next = random(seed);
  const unit = () => {
    const vector = Array.from({ length: dimension }, () => next() - 0.5);
    const norm = Math.hypot(...vector) || 1;
    return vector.map((value) => value / norm);
  };
  const vectors = new Map<string, number[]>();
  const records: KnowledgeRecord[] = [];
  for (let index = 0; index < count; index += 1) {
    const content = `record ${index} common word${Math.floor(next() * 300)} topic${Math.floor(next() * 40)}`;
    vectors.set(content, unit());
    records.push({ id: `r${index}#chunk-0`, content, metadata: { docId: `r${index}`, chunkIndex: 0 } });
  }
  const questions = Array.from({ length: queries }, (_, index) => {
    const text = `question ${index} common word${Math.floor(next() * 300)} topic${Math.floor(next() * 40)}`;
    vectors.set(text, unit());
    return text;
  });
  const lookup = (text: string): number[] => {
    const vector = vectors.get(text);
    if (vector === undefined) throw new Error(`no vector for ${text}`);
    return vector;
  };
  const embeddings = {
    identity: { id: "test/seeded", version: "1", dimension },
    embedQuery: async (text: string) => lookup(text),
    embedDocuments: async (texts: string[]) => texts.map(lookup),
  };
  return { records, questions, embeddings: embeddings as unknown as EmbeddingsInterface };
}

describe("issue 36 (session 17 review): a search when the runtime refuses a WebAssembly memory", () => {
  it("gives the hits and scores of a search with the kernels, in every mode, on the JavaScript loops (the dense matrix, the gathered rows, the lexical sums, the norms; the sketch falls back too, its estimates held to the reference in nibble-table-kernel.test.ts)", async () => {
    if (wasm === undefined) return;
    const { records, questions, embeddings } = corpus(17, 5_000, 6);
    await (await build(records, { embeddings })).close();
    const modes = [
      { denseWeight: 0.3 },
      { denseWeight: 1, denseFloor: 0 },
      { denseWeight: 0 },
      { denseWeight: 0.3, approximateDense: { candidates: 50 } },
    ];
    const expected: unknown[] = [];
    for (const mode of modes) {
      const port = await open({ embeddings, minScore: 0, ...mode });
      for (const query of questions) expected.push(await port.search({ query, topK: 10 }));
    }
    // Under `ulimit -v` Node 20 may get one WebAssembly memory and no second:
    // "RangeError: WebAssembly.Memory(): could not allocate memory".
    const refused = vi.spyOn(wasm, "Memory").mockImplementation(function refuse() {
      throw new RangeError("WebAssembly.Memory(): could not allocate memory");
    });
    try {
      const found: unknown[] = [];
      for (const mode of modes) {
        const port = await open({ embeddings, minScore: 0, ...mode });
        for (const query of questions) found.push(await port.search({ query, topK: 10 }));
      }
      expect(refused).toHaveBeenCalled();
      expect(found).toEqual(expected);
      expect((expected[0] as unknown[]).length).toBe(10);
    } finally {
      refused.mockRestore();
    }
  });

  it("gives an approximate search's hits when the runtime refuses to grow the gathered rows' memory", async () => {
    if (wasm === undefined) return;
    const { records, questions, embeddings } = corpus(18, 5_000, 4);
    await (await build(records, { embeddings })).close();
    // 2,000 candidates' rows (64 bytes each) outgrow the memory's first 64 KiB page.
    const mode = { denseWeight: 0.3, approximateDense: { candidates: 2_000 } };
    const port = await open({ embeddings, minScore: 0, ...mode });
    const expected: unknown[] = [];
    for (const query of questions) expected.push(await port.search({ query, topK: 10 }));
    const refused = vi.spyOn(wasm.Memory.prototype, "grow").mockImplementation(function refuse(): number {
      throw new RangeError("WebAssembly.Memory.grow(): Maximum memory size exceeded");
    });
    try {
      const fresh = await open({ embeddings, minScore: 0, ...mode });
      const found: unknown[] = [];
      for (const query of questions) found.push(await fresh.search({ query, topK: 10 }));
      expect(refused).toHaveBeenCalled();
      expect(found).toEqual(expected);
    } finally {
      refused.mockRestore();
    }
  });
});
