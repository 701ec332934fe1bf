import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { CorruptIndexError } from "./errors/corrupt-index-error.js";
import type { LocalSearchPort } from "./port/local-search-port.js";
import type { LocalSearchPortOptions } from "./port/local-search-port-options.js";
import { openLocalSearchPort } from "./open-local-search-port.js";

const records: KnowledgeRecord[] = [
  {
    id: "refunds#chunk-0",
    content: "Refunds are paid back to the original card within five business days.",
    metadata: { docId: "refunds", chunkIndex: 0, title: "Refund policy", category: "billing" },
  },
  {
    id: "shipping#chunk-0",
    content: "Parcels leave the Rotterdam warehouse every weekday at noon.",
    metadata: { docId: "shipping", chunkIndex: 0, title: "Shipping", category: "logistics" },
  },
  {
    id: "passwords#chunk-0",
    content: "To reset a forgotten password, open the sign-in page and follow the reset link sent by email.",
    metadata: { docId: "passwords", chunkIndex: 0, title: "Account security", category: "accounts" },
  },
];

let directory: string;
const opened: LocalSearchPort[] = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "local-port-faults-"));
});

afterEach(async () => {
  for (const port of opened.splice(0)) await port.close();
  rmSync(directory, { recursive: true, force: true });
});

async function open(options: Partial<LocalSearchPortOptions> = {}): Promise<LocalSearchPort> {
  const port = await openLocalSearchPort({ directory, ...options });
  opened.push(port);
  return port;
}

async function build(batch: KnowledgeRecord[] = records, options: Partial<LocalSearchPortOptions> = {}): Promise<LocalSearchPort> {
  const writer = await open({ mode: "write", ...options });
  await writer.upsert(batch);
  await writer.commit();
  return writer;
}

/** Flips one byte of the data file whose name ends with `suffix`, keeping its size. */
function flipByte(suffix: string, at: (length: number) => number): string {
  const name = readdirSync(directory).find((entry) => entry.endsWith(suffix)) as string;
  const bytes = readFileSync(join(directory, name));
  const index = at(bytes.length);
  bytes[index] = (bytes[index] ?? 0) ^ 0x01;
  writeFileSync(join(directory, name), bytes);
  return name;
}

const corruptNaming = (name: string) => (error: unknown) =>
  CorruptIndexError.isInstance(error) &&
  error.message.includes(directory) &&
  error.message.includes(name) &&
  /checksum/.test(error.message) &&
  /Rebuild it/.test(error.message);

describe("openLocalSearchPort: silent corruption", () => {
  it("issue 14, issue 36 item 8: a reader and a writer open at once and refuse the damaged record when they first read its block", async () => {
    await (await build()).close();
    // A byte inside "Refunds are paid back…": still valid UTF-8, the same size, other text.
    const name = flipByte(".content.txt", () => 3);
    const reader = await open();
    await expect(reader.search({ query: "refund card", topK: 1 })).rejects.toSatisfy(corruptNaming(name));
    // Still refused on the next read: the damaged block is never handed on.
    await expect(reader.fetchRecords(["refunds#chunk-0"])).rejects.toSatisfy(corruptNaming(name));
    const writer = await openLocalSearchPort({ directory, mode: "write" });
    try {
      await expect(writer.search({ query: "refund card", topK: 1 })).rejects.toSatisfy(corruptNaming(name));
    } finally {
      await writer.close();
    }
  });

  it("issue 14: a damaged metadata byte is refused by the first search that reads it, a filter's included", async () => {
    await (await build()).close();
    const name = flipByte(".metadata.txt", (length) => length - 4);
    const reader = await open();
    await expect(reader.search({ query: "parcels", topK: 1, filter: { category: "logistics" } })).rejects.toSatisfy(corruptNaming(name));
    await expect(reader.search({ query: "password reset", topK: 1 })).rejects.toSatisfy(corruptNaming(name));
  });

  it("issue 14: a damaged byte in the postings or keys is refused when its block is first read (here, one block: at open)", async () => {
    await (await build()).close();
    const search = async () => (await open()).search({ query: "refund card", topK: 1 });
    const postings = flipByte(".postings.bin", () => 5);
    await expect(search()).rejects.toSatisfy(corruptNaming(postings));
    flipByte(".postings.bin", () => 5);
    const keys = flipByte(".keys.bin", (length) => length - 2);
    await expect(search()).rejects.toSatisfy(corruptNaming(keys));
  });
});

const ids = (hits: Array<{ id?: string }>) => hits.map((hit) => hit.id);

/** Embeddings whose `embedQuery` waits until `release` is called: a search held in flight. */
function gatedEmbeddings() {
  let open: () => void = () => undefined;
  let gate: Promise<void> = Promise.resolve();
  const vector = [1, 0, 0, 0];
  return {
    identity: { id: "test/gated", version: "1", dimension: 4 },
    hold() {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    release() {
      open();
    },
    async embedQuery() {
      await gate;
      return vector;
    },
    async embedDocuments(texts: string[]) {
      return texts.map(() => vector);
    },
  };
}

describe("openLocalSearchPort: a long-lived reader", () => {
  it("picks up every newer commit while it stays open: added records are found, deleted ones are gone, stats follow", async () => {
    const writer = await build(records.slice(0, 1));
    const reader = await open({ refreshIntervalMs: 0 });
    expect(ids(await reader.search({ query: "refund card", topK: 1 }))).toEqual(["refunds#chunk-0"]);
    for (const [index, record] of records.slice(1).entries()) {
      await writer.upsert([record]);
      await writer.commit();
      expect(ids(await reader.search({ query: record.content, topK: 1 }))).toEqual([record.id]);
      expect(reader.stats().chunks).toBe(index + 2);
    }
    await writer.deleteDocuments(["refunds"]);
    await writer.commit();
    expect(await reader.search({ query: "refund card", topK: 1 })).toEqual([]);
    expect(reader.stats().chunks).toBe(records.length - 1);
  });

  it("looks for a newer commit at most every refreshIntervalMs (default 1 s)", async () => {
    const writer = await build(records.slice(0, 1));
    const reader = await open();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      await writer.upsert([records[1] as KnowledgeRecord]);
      await writer.commit();
      expect(await reader.search({ query: "Rotterdam warehouse", topK: 1 })).toEqual([]);
      vi.setSystemTime(Date.now() + 1000);
      expect(ids(await reader.search({ query: "Rotterdam warehouse", topK: 1 }))).toEqual(["shipping#chunk-0"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("finishes a search in flight on the generation it started with, though a newer commit removed that generation's files", async () => {
    const embeddings = gatedEmbeddings();
    const writer = await build(records, { embeddings });
    const reader = await open({ embeddings, refreshIntervalMs: 0 });
    embeddings.hold();
    const inFlight = reader.search({ query: "refund card", topK: 1 });
    await writer.deleteDocuments(["refunds"]);
    await writer.commit();
    expect(readdirSync(directory).filter((name) => name.startsWith("00000001-"))).toEqual([]);
    // A search started now sees the new commit (it loads it, retiring the old one), also while the first is still waiting.
    const after = reader.search({ query: "refund card", topK: 1 });
    embeddings.release();
    expect(await inFlight).toMatchObject([{ id: "refunds#chunk-0", content: records[0]?.content }]);
    expect(ids(await after).includes("refunds#chunk-0")).toBe(false);
    expect(ids(await reader.search({ query: "Rotterdam warehouse", topK: 1 }))).toEqual(["shipping#chunk-0"]);
  });

  it.skipIf(process.platform !== "linux")("closes the files of a generation once no search uses it", async () => {
    const openFiles = () => readdirSync("/proc/self/fd").length;
    const writer = await build(records.slice(0, 1));
    const reader = await open({ refreshIntervalMs: 0 });
    await reader.search({ query: "refund", topK: 1 });
    const before = openFiles();
    for (const record of records.slice(1)) {
      await writer.upsert([record]);
      await writer.commit();
      await reader.search({ query: record.content, topK: 1 });
    }
    // One segment per commit so far; merged into one, each side holds one segment's files again.
    expect(openFiles()).toBeGreaterThan(before);
    await writer.optimize();
    await reader.search({ query: "refund", topK: 1 });
    expect(openFiles()).toBe(before);
  });

  it("refuses a bad refreshIntervalMs with ConfigurationError naming it", async () => {
    await (await build()).close();
    await expect(openLocalSearchPort({ directory, refreshIntervalMs: -1 })).rejects.toThrow(/refreshIntervalMs/);
  });
});
