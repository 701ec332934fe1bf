import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OfflineEmbeddings } from "./offline-embeddings.js";
import type { OfflineEmbeddingsOptions } from "./offline-embeddings.js";
import type { VectorArithmetic } from "./vector-arithmetic.js";

/** A pseudo-random generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const tableWords = readFileSync(new URL("../data/words.txt", import.meta.url), "utf8")
  .trimEnd()
  .split("\n");
const hanzi = "网关限流插件配置方法如何限制请求速率数据库备份恢复消息队列告警容器集群扩容路由上游证书";
const punctuation = [" ", " ", " ", ", ", ". ", "\n", " - ", "; ", "! "];

/**
 * A random text: words of the table (the common ones more often, repeated), unknown words,
 * capitals, punctuation and, with `cjk`, runs of Chinese characters; sometimes nothing to embed.
 */
function randomText(next: () => number, cjk: boolean): string {
  if (next() < 0.03) return next() < 0.5 ? "" : "!!! ... ???";
  const length = 1 + Math.floor(next() * next() * 300);
  let text = "";
  for (let at = 0; at < length; at += 1) {
    const kind = next();
    if (cjk && kind < 0.15) text += hanzi.slice(Math.floor(next() * hanzi.length), Math.floor(next() * hanzi.length) + 2);
    else if (kind < 0.22) text += `zq${Math.floor(next() * 1e6).toString(36)}`;
    else {
      const word = tableWords[Math.floor(tableWords.length * next() ** 3)] as string;
      text += next() < 0.1 ? word.toUpperCase() : word;
    }
    text += punctuation[Math.floor(next() * punctuation.length)];
  }
  return text;
}

/**
 * An embedder whose runtime refused it a WebAssembly memory (or, `refusing` "Instance", the
 * kernel's instance) when its first documents started the kernel: its arithmetic runs on the
 * JavaScript loops.
 */
async function embedderOnLoops(options: OfflineEmbeddingsOptions, refusing: "Memory" | "Instance" = "Memory"): Promise<OfflineEmbeddings> {
  const refused = vi.spyOn(webAssembly, refusing).mockImplementation(function refuse(): never {
    throw new RangeError(`WebAssembly.${refusing}(): could not allocate memory`);
  });
  try {
    const embedder = new OfflineEmbeddings(options);
    await embedder.embedDocumentRows(["the kernel starts with the first documents"]);
    return embedder;
  } finally {
    refused.mockRestore();
  }
}

const onKernel = (embedder: OfflineEmbeddings): boolean => (embedder as unknown as { arithmetic: VectorArithmetic }).arithmetic.onKernel;

/** The bytes of float vectors, for a comparison bit for bit (+0 and -0 apart, NaN by its bits). */
function bytesOf(vectors: ArrayLike<number>[], Type: Float64ArrayConstructor | Float32ArrayConstructor): Buffer {
  return Buffer.concat(vectors.map((vector) => Buffer.from(Type.from(vector).buffer)));
}

/** The runtime's WebAssembly API (the tests' types have no DOM library). */
const webAssembly = (
  globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number }) => unknown; Instance: new () => unknown } }
).WebAssembly;

afterEach(() => vi.restoreAllMocks());

describe("issue 36 item 6: the embedder's float arithmetic on its WebAssembly kernel", () => {
  it.each([
    ["the default options", {}, 1],
    ["63 buckets (an odd number) and a lexical weight of 0.3", { hashDimension: 63, lexicalWeight: 0.3 }, 2],
    ["no Chinese glosses", { chineseGlosses: false }, 3],
    ["all lexical (weight 1)", { lexicalWeight: 1, hashDimension: 16 }, 4],
    ["all word vectors (weight 0)", { lexicalWeight: 0 }, 5],
  ])(
    "gives the vectors of the JavaScript loops bit for bit, documents, rows and queries, with and without CJK (%s)",
    async (_, options, seed) => {
      const next = random(seed);
      const texts = Array.from({ length: 400 }, (_, index) => randomText(next, index % 2 === 0));
      texts.push("", "   ", "网关", "limit limit limit", "zqzq zqzqzq");
      const kernel = new OfflineEmbeddings(options);
      const loops = await embedderOnLoops(options);
      const [kernelRows, loopRows] = [await kernel.embedDocumentRows(texts), await loops.embedDocumentRows(texts)];
      expect([onKernel(kernel), onKernel(loops)]).toEqual([true, false]);
      expect(bytesOf(kernelRows, Float32Array).equals(bytesOf(loopRows, Float32Array))).toBe(true);
      const [kernelDocuments, loopDocuments] = [await kernel.embedDocuments(texts), await loops.embedDocuments(texts)];
      expect(bytesOf(kernelDocuments, Float64Array).equals(bytesOf(loopDocuments, Float64Array))).toBe(true);
      const kernelQueries: number[][] = [];
      const loopQueries: number[][] = [];
      for (const text of texts) {
        kernelQueries.push(await kernel.embedQuery(text));
        loopQueries.push(await loops.embedQuery(text));
      }
      expect(bytesOf(kernelQueries, Float64Array).equals(bytesOf(loopQueries, Float64Array))).toBe(true);
    },
    60_000,
  );

  it("starts the kernel with the first documents, not for queries: a one-query process makes no WebAssembly memory", async () => {
    // Assembling, compiling and instantiating the kernel and mapping its 5.6 MB cost a cold query
    // process 4-6 ms of CPU for one short text, which the loops embed as fast.
    const Memory = (webAssembly as unknown as { Memory: new (descriptor: { initial: number }) => unknown }).Memory;
    const memories = vi.spyOn(webAssembly, "Memory").mockImplementation(function counted(descriptor: { initial: number }) {
      return new Memory(descriptor);
    });
    const embedder = new OfflineEmbeddings();
    const query = await embedder.embedQuery("how do I rotate the gateway's keys");
    expect([memories.mock.calls.length, onKernel(embedder)]).toEqual([0, false]);
    const rows = await embedder.embedDocumentRows(["how do I rotate the gateway's keys"]);
    expect([memories.mock.calls.length, onKernel(embedder)]).toEqual([1, true]);
    // The query after the move is the one before it, bit for bit.
    expect(
      bytesOf([await embedder.embedQuery("how do I rotate the gateway's keys")], Float64Array).equals(bytesOf([query], Float64Array)),
    ).toBe(true);
    expect(rows).toHaveLength(1);
    // LangChain's `embedDocuments` (what a vector store's upserts call) starts it too.
    const langChain = new OfflineEmbeddings();
    await langChain.embedDocuments(["how do I rotate the gateway's keys"]);
    expect([memories.mock.calls.length, onKernel(langChain)]).toEqual([2, true]);
  });

  it("runs the JavaScript loops, the same vectors, where the runtime refuses to instantiate the kernel", async () => {
    const next = random(6);
    const texts = Array.from({ length: 100 }, (_, index) => randomText(next, index % 2 === 0));
    const loops = await embedderOnLoops({}, "Instance");
    expect(onKernel(loops)).toBe(false);
    const [kernelRows, loopRows] = [await new OfflineEmbeddings().embedDocumentRows(texts), await loops.embedDocumentRows(texts)];
    expect(bytesOf(kernelRows, Float32Array).equals(bytesOf(loopRows, Float32Array))).toBe(true);
  });
});
