import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { afterEach, describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { EmbedderMismatchError } from "./errors/embedder-mismatch-error.js";
import { build, hashEmbeddings, open, records, useIndexFolder } from "./test/local-port-test-fixtures.js";
import { openLocalSearchPort } from "./open-local-search-port.js";
import { vectorsAheadLimit } from "./writer/vectors-ahead.js";

useIndexFolder();

/** Index folders besides the test's own, removed after it. */
const others: string[] = [];
afterEach(() => {
  for (const folder of others.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function otherFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "local-port-ahead-"));
  others.push(folder);
  return folder;
}

/**
 * The test hash embedder, recording the texts of every `embedDocuments` call; `fail` makes the
 * next calls reject (or answer with one vector too few, for "short").
 */
function recordingEmbeddings() {
  const inner = hashEmbeddings();
  const state = {
    calls: [] as string[][],
    fail: [] as Array<"reject" | "short">,
  };
  const embeddings: EmbeddingsInterface & { identity: typeof inner.identity } = {
    identity: inner.identity,
    embedQuery: (text) => inner.embedQuery(text),
    async embedDocuments(texts) {
      state.calls.push([...texts]);
      const failure = state.fail.shift();
      if (failure === "reject") throw new Error("embedding service unavailable");
      const vectors = await inner.embedDocuments(texts);
      return failure === "short" ? vectors.slice(1) : vectors;
    },
  };
  return { embeddings, state };
}

async function hitsOf(port: Awaited<ReturnType<typeof open>>): Promise<unknown[]> {
  const hits = [];
  for (const query of ["refund card", "password reset email", "requests per minute", "网关限流"]) {
    hits.push(await port.search({ query, topK: 3 }));
  }
  return hits;
}

describe("openLocalSearchPort: embedAhead", () => {
  it("issue 14: an upsert takes the vectors asked for ahead (one call per batch, not two), and the index is the same", async () => {
    const { embeddings, state } = recordingEmbeddings();
    const writer = await open({ mode: "write", embeddings });
    writer.embedAhead(records.slice(0, 3));
    writer.embedAhead(records.slice(3));
    expect(state.calls.length).toBe(2);
    await writer.upsert([...records]);
    expect(state.calls.length).toBe(2);
    await writer.commit();
    const withAhead = await hitsOf(writer);
    await writer.close();

    const plain = recordingEmbeddings();
    const other = await openLocalSearchPort({ directory: otherFolder(), mode: "write", embeddings: plain.embeddings });
    try {
      await other.upsert([...records]);
      await other.commit();
      expect(plain.state.calls.length).toBe(1);
      expect(await hitsOf(other)).toEqual(withAhead);
    } finally {
      await other.close();
    }
  });

  it("issue 14: a record whose text changed since, or that was never asked for, is embedded at upsert; the rest is taken", async () => {
    const { embeddings, state } = recordingEmbeddings();
    const writer = await open({ mode: "write", embeddings });
    writer.embedAhead(records.slice(0, 4));
    const changed: KnowledgeRecord = { ...(records[1] as KnowledgeRecord), content: "Refunds for cancelled orders need the receipt." };
    await writer.upsert([records[0] as KnowledgeRecord, changed, records[2] as KnowledgeRecord, records[5] as KnowledgeRecord]);
    expect(state.calls.length).toBe(2);
    expect(state.calls[1]?.length).toBe(2);
    expect(state.calls[1]?.some((text) => text.includes("receipt"))).toBe(true);
    const [hit] = await writer.search({ query: "cancelled orders receipt", topK: 1 });
    expect(hit?.id).toBe("refunds#chunk-1");
    expect(hit?.content).toBe(changed.content);
  });

  it("issue 14: a batch asked for ahead that failed is asked for again at upsert; failing again, the upsert rejects and stages nothing", async () => {
    const { embeddings, state } = recordingEmbeddings();
    const writer = await open({ mode: "write", embeddings });
    state.fail.push("reject");
    writer.embedAhead(records.slice(0, 2));
    await writer.upsert(records.slice(0, 2));
    expect(state.calls.length).toBe(2);
    expect(writer.stats().chunks).toBe(2);

    state.fail.push("short", "short");
    writer.embedAhead(records.slice(2, 4));
    const error = await writer.upsert(records.slice(2, 4)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EmbedderMismatchError);
    expect((error as Error).message).toMatch(/returned 1 vectors for 2 texts/);
    expect(writer.stats().chunks).toBe(2);
    await writer.upsert(records.slice(2, 4));
    expect(writer.stats().chunks).toBe(4);
  });

  it("issue 14: at most 4 calls asked ahead run at once; the next start as those end, and every upsert gets its vectors", async () => {
    const inner = hashEmbeddings();
    let running = 0;
    let most = 0;
    const slow: EmbeddingsInterface & { identity: typeof inner.identity } = {
      identity: inner.identity,
      embedQuery: (text) => inner.embedQuery(text),
      async embedDocuments(texts) {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return inner.embedDocuments(texts);
      },
    };
    const writer = await open({ mode: "write", embeddings: slow });
    const batches = Array.from({ length: 10 }, (_, batch): KnowledgeRecord[] =>
      Array.from({ length: 3 }, (_, index) => ({
        id: `b${batch}#${index}`,
        content: `batch ${batch} record ${index}`,
        metadata: { docId: `b${batch}` },
      })),
    );
    for (const batch of batches) writer.embedAhead(batch);
    expect(running).toBe(4);
    for (const batch of batches) await writer.upsert(batch);
    expect(most).toBe(4);
    expect(writer.stats().chunks).toBe(30);
    const [hit] = await writer.search({ query: "batch 9 record 2", topK: 1 });
    expect(hit?.id).toBe("b9#2");
  });

  it("issue 14: does nothing, and never throws, in read mode, without embeddings, once closed, for bad records or past the limit", async () => {
    await build(records.slice(0, 1), { embeddings: hashEmbeddings() });
    const { embeddings, state } = recordingEmbeddings();
    const reader = await open({ embeddings });
    reader.embedAhead([...records]);
    expect(state.calls).toEqual([]);

    const lexicalOnly = await openLocalSearchPort({ directory: otherFolder(), mode: "write" });
    expect(() => lexicalOnly.embedAhead([...records])).not.toThrow();
    await lexicalOnly.close();
    expect(() => lexicalOnly.embedAhead([...records])).not.toThrow();

    const writer = await openLocalSearchPort({ directory: otherFolder(), mode: "write", embeddings });
    try {
      writer.embedAhead([{ id: "", content: 3 } as unknown as KnowledgeRecord, null as unknown as KnowledgeRecord]);
      writer.embedAhead("records" as unknown as KnowledgeRecord[]);
      expect(state.calls).toEqual([]);
      const many = (from: number, count: number): KnowledgeRecord[] =>
        Array.from({ length: count }, (_, index) => ({
          id: `many#${from + index}`,
          content: `record ${from + index}`,
          metadata: { docId: "many" },
        }));
      // Past the limit the oldest records are let go: their upsert asks again, the others' does not.
      writer.embedAhead(many(0, vectorsAheadLimit - 1));
      writer.embedAhead(many(vectorsAheadLimit, 2));
      expect(state.calls.length).toBe(2);
      await writer.upsert([...many(0, 1), ...many(1, 1), ...many(vectorsAheadLimit, 2)]);
      expect(state.calls.length).toBe(3);
      expect(state.calls[2]).toEqual(["record 0"]);
      writer.embedAhead(many(20_000, vectorsAheadLimit + 1));
      expect(state.calls.length).toBe(3);
      const error = await writer.upsert([{ id: "", content: "x", metadata: {} }]).catch((caught: unknown) => caught);
      expect((error as Error).message).toMatch(/id/);
    } finally {
      await writer.close();
    }
    expect(() => writer.embedAhead([...records])).not.toThrow();
  });
});
