import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { openLocalSearchPortWithHooks } from "./open-local-search-port.js";
import type { LocalSearchPort } from "./port/local-search-port.js";
import { PendingChanges } from "./snapshot/pending-changes.js";
import type { AnalysedTerms } from "./snapshot/pending-changes.js";
import { hashEmbeddings, records } from "./test/local-port-test-fixtures.js";

/** The test hash embedder, whose answers wait for `gate` when one is set and reject once when `fail` is. */
function gatedEmbeddings() {
  const inner = hashEmbeddings();
  const state = { gate: undefined as Promise<void> | undefined, fail: false };
  const embeddings: EmbeddingsInterface & { identity: typeof inner.identity } = {
    identity: inner.identity,
    embedQuery: (text) => inner.embedQuery(text),
    async embedDocuments(texts) {
      if (state.gate !== undefined) await state.gate;
      if (state.fail) {
        state.fail = false;
        throw new Error("embedding service unavailable");
      }
      return inner.embedDocuments(texts);
    },
  };
  return { embeddings, state };
}

const more: KnowledgeRecord[] = Array.from({ length: 24 }, (_, index) => ({
  id: `more#${index}`,
  content: `Zebra${index} quagga rateLimit limiting HTTPServer 限流配置${index} ${index % 3 === 0 ? "refund card" : "password email"} unique${index}word`,
  metadata: { docId: `more-${index % 5}` },
}));
const queries = ["refund card", "password reset email", "网关限流", "zebra quagga", "rate limit", "unique7word", "限流配置", "http server"];

const folders: string[] = [];
const ports: LocalSearchPort[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const port of ports.splice(0)) await port.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function writer(embeddings: EmbeddingsInterface): Promise<LocalSearchPort> {
  const directory = mkdtempSync(join(tmpdir(), "local-port-term-ids-"));
  folders.push(directory);
  const port = await openLocalSearchPortWithHooks({ directory, mode: "write", embeddings, minScore: 0 }, { flushRecords: 5 });
  ports.push(port);
  return port;
}

async function hitsOf(port: LocalSearchPort): Promise<unknown[]> {
  const hits = [];
  for (const query of queries) hits.push(await port.search({ query, topK: 100 }));
  return hits;
}

/** Upserts `batch` while a search runs during its embedding (it folds the pending changes its texts were analysed into). */
async function upsertAcrossSearch(
  port: LocalSearchPort,
  state: { gate: Promise<void> | undefined },
  batch: KnowledgeRecord[],
): Promise<void> {
  let release = (): void => undefined;
  state.gate = new Promise((resolve) => {
    release = resolve;
  });
  const upsert = port.upsert(batch);
  await new Promise((resolve) => setTimeout(resolve, 10));
  await port.search({ query: "refund zebra", topK: 3 });
  release();
  await upsert;
  state.gate = undefined;
}

describe("issue 36 item 4 (review): a writer counts terms analysed into ids of one pending changes in another", () => {
  it("an upsert whose pending changes a search folded while it awaited its vectors, replacing records, across flushes and a reopened writer, gives the hits of the same upserts without the searches", async () => {
    const counted = vi.spyOn(PendingChanges.prototype, "countTerms");
    const replaced = { ...(records[1] as KnowledgeRecord), content: "Replaced refund text zebra" };
    const replacedAgain = { ...(more[2] as KnowledgeRecord), content: "replaced two zebra" };
    const gated = gatedEmbeddings();
    const across = await writer(gated.embeddings);
    await across.upsert(records.slice(0, 3));
    await upsertAcrossSearch(across, gated.state, [...records.slice(3), replaced, ...more.slice(0, 12)]);
    await across.upsert(more.slice(12, 18));
    await across.commit();
    const directory = folders[0] as string;
    await across.close();
    ports.splice(0);
    const reopened = await openLocalSearchPortWithHooks(
      { directory, mode: "write", embeddings: gated.embeddings, minScore: 0 },
      { flushRecords: 5 },
    );
    ports.push(reopened);
    await upsertAcrossSearch(reopened, gated.state, [...more.slice(18), replacedAgain]);
    await reopened.commit();
    // The searches did fold the pending changes between an analysis and its counting.
    const crossed = counted.mock.calls.some(
      ([terms], call) =>
        "numbering" in terms &&
        (terms as AnalysedTerms).numbering !== (counted.mock.contexts[call] as unknown as { numbering: unknown }).numbering,
    );
    expect(crossed).toBe(true);

    const plain = await writer(hashEmbeddings());
    await plain.upsert(records.slice(0, 3));
    await plain.upsert([...records.slice(3), replaced, ...more.slice(0, 18)]);
    await plain.commit();
    await plain.upsert([...more.slice(18), replacedAgain]);
    await plain.commit();
    expect(await hitsOf(reopened)).toEqual(await hitsOf(plain));
  });

  it("upserts that fail after their texts were analysed (the embedder rejects) leave the index as it is without them, through commits, deletes and optimize", async () => {
    const build = async (failing: boolean): Promise<unknown[]> => {
      const { embeddings, state } = gatedEmbeddings();
      const port = await writer(embeddings);
      const fail = async (): Promise<void> => {
        if (!failing) return;
        state.fail = true;
        await expect(
          port.upsert(more.slice(0, 3).map((record) => ({ ...record, content: `${record.content} neverstaged` }))),
        ).rejects.toThrow("embedding service unavailable");
      };
      await port.upsert([...records, ...more]);
      await port.commit();
      await fail();
      await port.deleteDocuments(["more-1", "more-2", "refunds"]);
      await port.commit();
      await fail();
      await port.optimize();
      await fail();
      await port.upsert([
        { ...(more[23] as KnowledgeRecord), content: "replaced last zebra" },
        { ...(more[0] as KnowledgeRecord), content: "replaced first" },
      ]);
      await port.deleteDocuments(["more-4"]);
      await port.optimize();
      return hitsOf(port);
    };
    const withFailures = await build(true);
    expect(JSON.stringify(withFailures)).not.toContain("neverstaged");
    expect(withFailures).toEqual(await build(false));
  });
});
