import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { InvalidFilterError } from "@lookup-knowledge/core";
import { directory, hashEmbeddings, open, useIndexFolder } from "./test/local-port-test-fixtures.js";
import type { LocalSearchPort } from "./port/local-search-port.js";

useIndexFolder();

// Issue 33, item 2: under a caller's scope the port searches as if the index held the
// scope's records only. Tenant b's records share a's words, so with global statistics the
// scores of a's hits would move with b's records.

const tenantA: KnowledgeRecord[] = [
  {
    id: "a-refunds#chunk-0",
    content: "Refunds of a paid invoice take five days.",
    metadata: { docId: "a-refunds", tenant: "a", category: "billing" },
  },
  {
    id: "a-keys#chunk-0",
    content: "Rotate an API key from the settings page.",
    metadata: { docId: "a-keys", tenant: "a", category: "api" },
  },
  {
    id: "a-roles#chunk-0",
    content: "Roles decide who can refund an invoice.",
    metadata: { docId: "a-roles", tenant: "a", category: "security" },
  },
];
const tenantB: KnowledgeRecord[] = [
  {
    id: "b-refunds#chunk-0",
    content: "Refund refund refund: the refund desk of tenant b.",
    metadata: { docId: "b-refunds", tenant: "b", category: "billing" },
  },
  {
    id: "b-keys#chunk-0",
    content: "API key API key rotation for every invoice.",
    metadata: { docId: "b-keys", tenant: "b", category: "api" },
  },
  {
    id: "b-nightingale#chunk-0",
    content: "Project Nightingale ships in spring.",
    metadata: { docId: "b-nightingale", tenant: "b", category: "secret" },
  },
];

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A committed index of `batch` (in `directory`, or a folder of its own) and a reader of it. */
async function readerOf(batch: KnowledgeRecord[], own: boolean): Promise<LocalSearchPort> {
  const folder = own ? mkdtempSync(join(tmpdir(), "local-port-scope-")) : directory;
  if (own) folders.push(folder);
  const writer = await open({ directory: folder, mode: "write", embeddings: hashEmbeddings() });
  await writer.upsert(batch);
  await writer.commit();
  await writer.close();
  return open({ directory: folder, embeddings: hashEmbeddings() });
}

const interleaved = [tenantB[0], tenantA[0], tenantB[1], tenantA[1], tenantA[2], tenantB[2]] as KnowledgeRecord[];

describe("openLocalSearchPort: a caller's scope", () => {
  it("issue 33: hits, scores and answerability under a scope do not depend on records outside it", async () => {
    const both = await readerOf(interleaved, false);
    const alone = await readerOf(tenantA, true);
    for (const query of ["refund an invoice", "API key rotation", "Project Nightingale", "refund"]) {
      for (const filter of [{ tenant: "a" }, { tenant: { $in: ["a"] } }]) {
        const [left, right] = await Promise.all([both, alone].map((port) => port.search({ query, topK: 5, filter })));
        expect(left, query).toEqual(right);
      }
      // A steering filter inside the scope is judged against the scope's best (filterShare) alone too.
      const steered = { filter: { tenant: "a", category: "security" }, scopeFilter: { tenant: "a" } };
      const [left, right] = await Promise.all([both, alone].map((port) => port.search({ query, topK: 5, ...steered })));
      expect(left, query).toEqual(right);
    }
    // Without the scope the same query is scored over everyone's records: b's records change a's scores.
    const unscoped = await both.search({ query: "refund an invoice", topK: 6 });
    const scoped = await both.search({ query: "refund an invoice", topK: 6, filter: { tenant: "a" } });
    const scoreOf = (hits: typeof scoped, id: string) => hits.find((hit) => hit.id === id)?.score;
    expect(unscoped.map((hit) => hit.id)).toContain("b-refunds#chunk-0");
    expect(scoreOf(unscoped, "a-refunds#chunk-0")).not.toBe(scoreOf(scoped, "a-refunds#chunk-0"));
  });

  it("issue 33: termShare and scopeSize count the scope's records only; a bad scope is refused", async () => {
    const both = await readerOf(interleaved, false);
    const alone = await readerOf(tenantA, true);
    expect(both.scopeSize()).toBe(6);
    expect(both.scopeSize({ tenant: "a" })).toBe(3);
    expect(both.scopeSize({ tenant: "c" })).toBe(0);
    for (const text of ["refund", "API key", "Nightingale", "invoice"]) {
      expect(both.termShare(text, { tenant: "a" }), text).toBe(alone.termShare(text));
    }
    expect(both.termShare("Nightingale")).toBeCloseTo(1 / 6);
    expect(both.termShare("Nightingale", { tenant: "a" })).toBe(0);
    expect(() => both.termShare("refund", { tenant: { $like: "a" } } as never)).toThrow(InvalidFilterError);
    expect(() => both.scopeSize({ $or: "a" } as never)).toThrow(/\$or/);
  });

  it("issue 33: a writer's pending records are scoped like committed ones", async () => {
    const writer = await open({ mode: "write", embeddings: hashEmbeddings() });
    await writer.upsert(interleaved);
    const alone = await readerOf(tenantA, true);
    const [left, right] = await Promise.all(
      [writer, alone].map((port) => port.search({ query: "refund an invoice", topK: 5, filter: { tenant: "a" } })),
    );
    expect(left).toEqual(right);
  });
});
