import { mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { manifestChecksum } from "./format/manifest-text.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import type { LocalSearchPort } from "./port/local-search-port.js";
import type { LocalSearchPortOptions } from "./port/local-search-port-options.js";
import { openLocalSearchPort } from "./open-local-search-port.js";

const refunds: KnowledgeRecord = {
  id: "refunds#chunk-0",
  content: "Refunds are paid back to the original card within five business days.",
  metadata: { docId: "refunds", chunkIndex: 0, title: "Refund policy" },
};
const shipping: KnowledgeRecord = {
  id: "shipping#chunk-0",
  content: "Parcels leave the Rotterdam warehouse every weekday at noon.",
  metadata: { docId: "shipping", chunkIndex: 0, title: "Shipping" },
};
const passwords: KnowledgeRecord = {
  id: "passwords#chunk-0",
  content: "To reset a forgotten password, open the sign-in page and follow the reset link sent by email.",
  metadata: { docId: "passwords", chunkIndex: 0, title: "Account security" },
};

let directory: string;
const opened: LocalSearchPort[] = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "local-port-refresh-"));
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

/**
 * Flips one byte of the newest data file whose name ends with `suffix` (the last commit's:
 * names start with the generation), keeping its size. A reader checks the block checksums
 * file whole when it loads a segment (other files block by block as searches read them), so
 * a flipped byte there makes the commit unloadable.
 */
function flipByte(suffix: string): string {
  const names = readdirSync(directory)
    .filter((entry) => entry.endsWith(suffix))
    .sort();
  expect(names.length).toBeGreaterThan(0);
  const name = names.at(-1) as string;
  const bytes = readFileSync(join(directory, name));
  bytes[3] = (bytes[3] ?? 0) ^ 0x01;
  writeFileSync(join(directory, name), bytes);
  return name;
}

/** Rewrites manifest.json (as a commit does: a new file renamed over it) with `change` applied. */
function rewriteManifest(change: (manifest: Record<string, unknown>) => void): void {
  const path = join(directory, "manifest.json");
  const manifest = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  change(manifest);
  manifest["checksum"] = manifestChecksum(manifest);
  writeFileSync(`${path}.edit`, JSON.stringify(manifest));
  renameSync(`${path}.edit`, path);
}

const ids = (hits: Array<{ id?: string }>) => hits.map((hit) => hit.id);

describe("openLocalSearchPort: a reader whose refresh fails", () => {
  it("keeps serving its generation when a newer commit is corrupt, does not reload that commit on every search, and reports it once", async () => {
    const writer = await open({ mode: "write" });
    await writer.upsert([refunds]);
    await writer.commit();
    const reported: Error[] = [];
    const reader = await open({ refreshIntervalMs: 0, onRefreshError: (error) => reported.push(error) });
    expect(ids(await reader.search({ query: "refund card", topK: 1 }))).toEqual([refunds.id]);
    const loaded = reader.stats();

    await writer.upsert([shipping]);
    await writer.commit();
    const corrupt = flipByte(".blocks.bin");
    for (let search = 0; search < 5; search += 1) {
      expect(ids(await reader.search({ query: "refund card", topK: 1 }))).toEqual([refunds.id]);
      expect(await reader.search({ query: "Rotterdam warehouse", topK: 1 })).toEqual([]);
    }
    const failed = reader.stats();
    expect(failed).toMatchObject({ chunks: 1, lastCommit: loaded.lastCommit, refreshError: { code: "corrupt_index" } });
    expect(failed.refreshError?.message).toContain(corrupt);
    expect(reported).toHaveLength(1);

    // Repaired in place, the manifest unchanged: the reader does not try that commit again
    // (it would load now), so it tried it once, not on every search.
    flipByte(".blocks.bin");
    expect(await reader.search({ query: "Rotterdam warehouse", topK: 1 })).toEqual([]);
    expect(reader.stats().refreshError).toEqual(failed.refreshError);

    // The next good commit loads, and the failure is cleared.
    await writer.upsert([passwords]);
    await writer.commit();
    expect(ids(await reader.search({ query: "forgotten password reset", topK: 1 }))).toEqual([passwords.id]);
    expect(ids(await reader.search({ query: "Rotterdam warehouse", topK: 1 }))).toEqual([shipping.id]);
    expect(reader.stats()).toMatchObject({ chunks: 3 });
    expect(reader.stats().refreshError).toBeUndefined();
    expect(reported).toHaveLength(1);
  });

  it("keeps serving its generation when a newer commit was written with another analyser, until a loadable one comes", async () => {
    const writer = await open({ mode: "write" });
    await writer.upsert([refunds]);
    await writer.commit();
    const reported: Error[] = [];
    const reader = await open({ refreshIntervalMs: 0, onRefreshError: (error) => reported.push(error) });

    await writer.upsert([shipping]);
    await writer.commit();
    rewriteManifest((manifest) => (manifest["analyzer"] = { version: "some-other-analyser" }));
    for (let search = 0; search < 3; search += 1) {
      expect(ids(await reader.search({ query: "refund card", topK: 1 }))).toEqual([refunds.id]);
      expect(await reader.search({ query: "Rotterdam warehouse", topK: 1 })).toEqual([]);
    }
    expect(reader.stats().refreshError).toMatchObject({ code: "analyzer_mismatch" });
    expect(reported.map((error) => error.name)).toEqual(["AnalyzerMismatchError"]);

    await writer.upsert([passwords]);
    await writer.commit();
    expect(ids(await reader.search({ query: "Rotterdam warehouse", topK: 1 }))).toEqual([shipping.id]);
    expect(reader.stats().refreshError).toBeUndefined();
  });

  it("keeps serving its generation when a newer commit holds vectors of another embedder", async () => {
    const vector = [1, 0, 0, 0];
    const embeddings = {
      identity: { id: "test/one", version: "1", dimension: 4 },
      embedQuery: async () => vector,
      embedDocuments: async (texts: string[]) => texts.map(() => vector),
    };
    const writer = await open({ mode: "write", embeddings });
    await writer.upsert([refunds]);
    await writer.commit();
    const reported: Error[] = [];
    const reader = await open({ embeddings, refreshIntervalMs: 0, onRefreshError: (error) => reported.push(error) });
    expect(ids(await reader.search({ query: "refund card", topK: 1 }))).toEqual([refunds.id]);

    await writer.upsert([shipping]);
    await writer.commit();
    rewriteManifest((manifest) => (manifest["embedder"] = { id: "test/other", version: "2", dimension: 4 }));
    for (let search = 0; search < 3; search += 1) {
      expect(ids(await reader.search({ query: "refund card", topK: 1 }))).toEqual([refunds.id]);
    }
    expect(reader.stats()).toMatchObject({ chunks: 1, embedder: embeddings.identity, refreshError: { code: "embedder_mismatch" } });
    expect(reported.map((error) => error.name)).toEqual(["EmbedderMismatchError"]);
  });

  it("warns on the console once by default, and refuses an onRefreshError that is not a function", async () => {
    const writer = await open({ mode: "write" });
    await writer.upsert([refunds]);
    await writer.commit();
    await expect(openLocalSearchPort({ directory, onRefreshError: "warn" as never })).rejects.toThrow(/onRefreshError/);
    const reader = await open({ refreshIntervalMs: 0 });
    await writer.upsert([shipping]);
    await writer.commit();
    flipByte(".blocks.bin");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      for (let search = 0; search < 3; search += 1) {
        expect(ids(await reader.search({ query: "refund card", topK: 1 }))).toEqual([refunds.id]);
      }
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/keeps serving.*corrupt/);
    } finally {
      warn.mockRestore();
    }
  });
});
