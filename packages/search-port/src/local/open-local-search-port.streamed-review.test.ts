import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LocalSearchPort } from "./port/local-search-port.js";
import { hashEmbeddings, recordsFrom } from "./test/local-port-test-fixtures.js";

// Issue 36 item 5 review: a process's first dense scan streams the vectors; each case loads the
// port's modules afresh (`vi.resetModules`), so its first search is a process's first.

const folders: string[] = [];
const ports: LocalSearchPort[] = [];
afterEach(async () => {
  for (const port of ports.splice(0)) await port.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  vi.restoreAllMocks();
});

/** Fresh modules (a fresh process's state): an opener, and whether each dense scan streamed. */
async function freshProcess() {
  vi.resetModules();
  const { openLocalSearchPort } = await import("./open-local-search-port.js");
  const { DenseMatrix } = await import("./dense/dense-matrix.js");
  const streamed: boolean[] = [];
  const scan = DenseMatrix.prototype.scanInChunks;
  vi.spyOn(DenseMatrix.prototype, "scanInChunks").mockImplementation(function (this: InstanceType<typeof DenseMatrix>, ...parts) {
    streamed.push((this as unknown as { streamed?: unknown }).streamed !== undefined);
    return scan.apply(this, parts);
  });
  const open = async (directory: string, mode: "read" | "write" = "read") => {
    const port = await openLocalSearchPort({ directory, mode, embeddings: hashEmbeddings() });
    ports.push(port);
    return port;
  };
  return { open, streamed };
}

/** An index of three segments (5,000, 1,500 and 2,000 records); `deleted` doc ids removed in a fourth commit. */
async function threeSegments(deleted: string[] = []): Promise<string> {
  const directory = mkdtempSync(join(tmpdir(), "streamed-review-"));
  folders.push(directory);
  const { open } = await freshProcess();
  const writer = await open(directory, "write");
  let first = 0;
  for (const size of [5000, 1500, 2000]) {
    await writer.upsert(recordsFrom(first, size));
    await writer.commit();
    first += size;
  }
  if (deleted.length > 0) {
    await writer.deleteDocuments(deleted);
    await writer.commit();
  }
  await writer.close();
  ports.splice(ports.indexOf(writer), 1);
  return directory;
}

// Every record's scope: a steering filter inside it is tested on the unscoped snapshot's slots
// (`accepts`), so the streamed scan runs with it. A filter alone scopes the snapshot (read whole).
const everyCategory = { category: { $in: ["c0", "c1", "c2"] } };
const searches = [
  { query: "rotate the webhook secret", topK: 10 },
  { query: "export an invoice", topK: 10, scopeFilter: everyCategory, filter: { category: "c1" } },
  { query: "sso setup errors note 4", topK: 5, scopeFilter: everyCategory, filter: { category: { $in: ["c0", "c2"] } } },
  { query: "audit log access", topK: 5, filter: { category: "c2" } },
];

/** Each search's hits and scores in a fresh process whose first dense scan is the first search, and whether it streamed. */
async function firstThenWhole(directory: string, search: (typeof searches)[number]) {
  const { open, streamed } = await freshProcess();
  const reader = await open(directory);
  const first = await reader.search(search);
  const again = await reader.search(search);
  return { first, again, streamed: [...streamed] };
}

describe("issue 36 item 5 review: the streamed first scan gives the whole matrix's hits and scores", () => {
  it("with steering filters (and a plain filter, read whole), over three segments", async () => {
    const directory = await threeSegments();
    for (const search of searches) {
      const { first, again, streamed } = await firstThenWhole(directory, search);
      expect(streamed).toEqual([search.scopeFilter !== undefined || search.filter === undefined, false]);
      expect(first.length).toBeGreaterThan(0);
      expect(first).toEqual(again);
    }
  });

  it("with deletions in two segments (read whole: the parts' rows are not the composed slots)", async () => {
    const directory = await threeSegments(["doc3", "doc4999", "doc6000", "doc6001"]);
    for (const search of searches) {
      const { first, again } = await firstThenWhole(directory, search);
      expect(first.length).toBeGreaterThan(0);
      expect(first).toEqual(again);
      expect(first.map((hit) => hit.id)).not.toContain("doc3#chunk-0");
    }
  });

  it("two searches at once on a fresh reader: one streams, and both give what they give one at a time", async () => {
    const directory = await threeSegments();
    const { open, streamed } = await freshProcess();
    const reader = await open(directory);
    const together = await Promise.all(searches.map((search) => reader.search(search)));
    expect(streamed.filter(Boolean)).toHaveLength(1);
    for (const [index, search] of searches.entries()) expect(together[index]).toEqual(await reader.search(search));
  });

  it("a damaged byte in a segment's rows, past its norms, fails the streamed search, and the next, naming the file: no hits from the rows before it", async () => {
    const directory = await threeSegments();
    // The first segment's file (5,000 rows: three 64 KB blocks), its last block: the norms are in its first.
    const damaged = readdirSync(directory)
      .filter((name) => name.endsWith(".vectors.bin"))
      .sort((a, b) => statSync(join(directory, b)).size - statSync(join(directory, a)).size)[0] as string;
    expect(statSync(join(directory, damaged)).size).toBeGreaterThan(2 * 65_536);
    const bytes = readFileSync(join(directory, damaged));
    bytes[bytes.length - 7] = (bytes[bytes.length - 7] ?? 0) ^ 0x01;
    writeFileSync(join(directory, damaged), bytes);
    const { open, streamed } = await freshProcess();
    const reader = await open(directory);
    const corrupt = (error: unknown) =>
      (error as { code?: string }).code === "corrupt_index" && String((error as Error).message).includes(damaged);
    await expect(reader.search(searches[0] as (typeof searches)[number])).rejects.toSatisfy(corrupt);
    expect(streamed).toEqual([true]);
    await expect(reader.search(searches[0] as (typeof searches)[number])).rejects.toSatisfy(corrupt);
  });

  it("without WebAssembly (plain JavaScript scans), over three segments", async () => {
    const directory = await threeSegments();
    const webAssembly = (globalThis as { WebAssembly?: unknown }).WebAssembly;
    vi.stubGlobal("WebAssembly", undefined);
    try {
      const { first, again, streamed } = await firstThenWhole(directory, searches[1] as (typeof searches)[number]);
      const { DenseMatrix } = await import("./dense/dense-matrix.js");
      expect(new DenseMatrix(1, 8).simd).toBe(false);
      expect(streamed).toEqual([true, false]);
      expect(first.length).toBeGreaterThan(0);
      expect(first).toEqual(again);
      // And the same hits and scores as with WebAssembly.
      vi.stubGlobal("WebAssembly", webAssembly);
      const withKernel = await firstThenWhole(directory, searches[1] as (typeof searches)[number]);
      expect(withKernel.first).toEqual(first);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
