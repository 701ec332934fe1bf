import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KnowledgeEntry, LookupResult, MetadataFilter } from "@lookup-knowledge/core";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { createL0Index } from "@lookup-knowledge/l0-hints";
import { openLocalSearchPort, type LocalSearchPort } from "@lookup-knowledge/search-port/local";
import { buildToolInvocationRecord } from "@lookup-knowledge/trace-store";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { l0IndexOptions } from "./common-term-test.js";
import { createKnowledgeRetriever } from "./create-knowledge-retriever.js";
import { createLookupKnowledgeTool } from "./create-lookup-knowledge-tool.js";

// Issue 33, item 2: a tenant's lookups see the index as if other tenants' documents were not
// there. Two real local indexes are built per run, one with tenant b's documents and one
// without; every output of a tenant-a lookup must be the same in both.

const words = [
  "refund",
  "invoice",
  "webhook",
  "retry",
  "signature",
  "gateway",
  "billing",
  "token",
  "quota",
  "export",
  "archive",
  "tenant",
  "region",
  "latency",
  "cache",
  "audit",
  "policy",
  "role",
];
const categories = ["billing", "network", "security"];

interface GeneratedDocument {
  tenant: "a" | "b";
  title: string[];
  keyword: string;
  category: string;
  body: string[];
}

const documentArbitrary = (tenant: "a" | "b"): fc.Arbitrary<GeneratedDocument> =>
  fc.record({
    tenant: fc.constant(tenant),
    title: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }),
    keyword: fc.constantFrom(...words, "rate limit", "load balance"),
    category: fc.constantFrom(...categories),
    body: fc.array(fc.constantFrom(...words), { minLength: 4, maxLength: 30 }),
  });

const filters: MetadataFilter[] = [
  { tenant: "a" },
  { tenant: { $in: ["a"] } },
  { tenant: "a", category: "billing" },
  { $and: [{ tenant: "a" }, { category: { $ne: "security" } }] },
  { tenant: { $ne: "b" } },
  { $or: [{ tenant: "a" }, { tenant: "c" }] },
];

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A committed local index of `documents` (in this order) and a reader of it, with their L0 entries. */
async function openIndex(
  documents: ReadonlyArray<GeneratedDocument & { docId: string }>,
): Promise<{ port: LocalSearchPort; entries: KnowledgeEntry[] }> {
  const directory = mkdtempSync(join(tmpdir(), "tenants-"));
  folders.push(directory);
  const writer = await openLocalSearchPort({ directory, mode: "write", embeddings: createOfflineEmbeddings() });
  const entries: KnowledgeEntry[] = [];
  for (const document of documents) {
    const title = document.title.join(" ");
    const source = `${document.docId}.md`;
    const metadata = {
      docId: document.docId,
      source,
      title,
      category: document.category,
      keywords: [document.keyword],
      tenant: document.tenant,
    };
    // Two chunks a document, so the per-document rules take part.
    await writer.upsert([
      { id: `${document.docId}#chunk-0`, content: `${title}. ${document.body.join(" ")}`, metadata: { ...metadata, chunkIndex: 0 } },
      { id: `${document.docId}#chunk-1`, content: document.body.slice().reverse().join(" "), metadata: { ...metadata, chunkIndex: 1 } },
    ]);
    entries.push({
      id: document.docId,
      source,
      title,
      keywords: [document.keyword],
      domain: document.category,
      metadata: { tenant: document.tenant },
    });
  }
  await writer.commit();
  await writer.close();
  return { port: await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings() }), entries };
}

/** Everything a caller reads of a lookup, with times and random ids left out. */
function outputsOf(content: string, result: LookupResult): unknown {
  const record = buildToolInvocationRecord({ result, id: "fixed", startedAt: new Date(0), durationMs: 0 });
  return JSON.parse(JSON.stringify({ content, result, record }), (key, value: unknown) =>
    /(?:Ms|At|^latency|^duration)$/u.test(key) ? undefined : value,
  );
}

describe("tenant isolation", () => {
  it("R12, issue 33: no output of a tenant-a lookup differs with tenant b's documents present or absent", {
    timeout: 240_000,
  }, async () => {
    let withHints = 0;
    let withBHints = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(documentArbitrary("a"), { minLength: 2, maxLength: 6 }),
        fc.array(documentArbitrary("b"), { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 14, maxLength: 14 }),
        fc.array(fc.array(fc.constantFrom(...words, "rate limit", "load balance"), { minLength: 1, maxLength: 4 }), {
          minLength: 3,
          maxLength: 3,
        }),
        fc.constantFrom(...filters),
        async (aDocuments, bDocuments, interleave, queries, filter) => {
          // Both tenants' documents interleaved as the booleans say; a's keep their order.
          const mixed: Array<GeneratedDocument & { docId: string }> = [];
          let a = 0;
          let b = 0;
          for (const takeB of [...interleave, ...Array<boolean>(aDocuments.length + bDocuments.length).fill(false)]) {
            const from = takeB && b < bDocuments.length ? bDocuments[b++] : a < aDocuments.length ? aDocuments[a++] : bDocuments[b++];
            if (from === undefined) break;
            mixed.push({ ...from, docId: `${from.tenant}/doc-${from.tenant === "a" ? a : b}` });
          }
          const present = await openIndex(mixed);
          const absent = await openIndex(mixed.filter((document) => document.tenant === "a"));
          try {
            const toolOf = ({ port, entries }: typeof present) =>
              createLookupKnowledgeTool(
                createKnowledgeRetriever({
                  searchPort: port,
                  l0Index: createL0Index(entries, l0IndexOptions(port)),
                }),
                { filter },
              );
            const tools = [toolOf(present), toolOf(absent)];
            for (const [position, words] of queries.entries()) {
              // Some queries name a b document's title, which only b's entry holds.
              const bTitle = bDocuments[position % bDocuments.length]?.title.join(" ") ?? "";
              const query = position === 0 ? `${bTitle} ${words.join(" ")}` : words.join(" ");
              const [left, right] = await Promise.all(
                tools.map(async (tool) => {
                  const message = await tool.invoke({ id: "call", name: "lookup_knowledge", args: { query }, type: "tool_call" });
                  return outputsOf(String(message.content), message.artifact as LookupResult);
                }),
              );
              expect(left).toEqual(right);
              const hints = (left as { result: LookupResult }).result.retrievalTrace.hints;
              if (hints.entries.length > 0) withHints += 1;
              if (hints.entries.some((entry) => entry.id.startsWith("b/"))) withBHints += 1;
            }
          } finally {
            await Promise.all([present.port.close(), absent.port.close()]);
          }
        },
      ),
      { numRuns: 25, seed: 33 },
    );
    // The runs reached the hints, and no b entry ever did.
    expect(withHints).toBeGreaterThan(0);
    expect(withBHints).toBe(0);
  });
});
