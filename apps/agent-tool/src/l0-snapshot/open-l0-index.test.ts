import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readIngestManifest } from "@lookup-knowledge/ingest/manifest";
import { createL0Index, snapshotL0Index, type KnowledgeEntry, type L0Index } from "@lookup-knowledge/l0-hints";
import { datasetsDirectory, needsDatasets, skipWithoutDatasets } from "@lookup-knowledge/vitest-config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { l0IndexOptions } from "../common-term-test.js";
import { ingestIntoLocalIndex } from "../ingest-into-local-index.js";
import { openKnowledgeBase } from "../open-knowledge-base.js";
import { openLocalKnowledgeBase } from "../open-local-knowledge-base.js";
import { optimizeLocalIndex } from "../optimize-local-index.js";
import { exampleKnowledgeBase } from "../test/example-knowledge-base.js";
import { l0SnapshotFileVersion, l0SnapshotFormat, l0SnapshotPath } from "./l0-snapshot-file.js";
import { l0SnapshotKey } from "./l0-snapshot-key.js";
import { readL0Snapshot } from "./read-l0-snapshot.js";
import { writeL0Snapshot } from "./write-l0-snapshot.js";

// Issue 36 item 5: a lookup on an ingested folder opens the L0 snapshot the ingest wrote instead
// of reading the manifest and building the index; its hints are a fresh build's for every
// query, and a snapshot that no longer stands for the folder is never used.

const fixedQueries = [
  "How do I rotate the webhook secret?",
  "Who can issue a refund for a paid invoice?",
  "rate limiting plugin configuration",
  "How to configure the limit-req plugin with Redis",
  "如何配置限流插件",
  "如何轮换 webhook 密钥",
  "退款 发票",
  "upstream health check and load balancing",
  "nothing matches this one",
];

/** Fixed queries and ones made of the entries' own titles, keywords and entities, mixed. */
function queriesOf(entries: KnowledgeEntry[]): string[] {
  const step = Math.max(1, Math.floor(entries.length / 60));
  const made = entries
    .filter((_, index) => index % step === 0)
    .flatMap((entry, index) => {
      const other = entries[(index * 7) % entries.length];
      return [
        entry.title ?? entry.id,
        `${entry.keywords?.[0] ?? ""} 和 ${other?.title ?? ""}`,
        `how to use ${entry.entities?.[0] ?? entry.keywords?.at(-1) ?? ""} with ${other?.keywords?.[0] ?? ""}`,
      ];
    });
  return [...fixedQueries, ...made];
}

/** Checks that the folder's lookups get a fresh build's hints, whole and within each domain; returns how many queries matched. */
async function expectFreshHints(dataDirectory: string, warnings: string[]): Promise<number> {
  const knowledgeBase = await openLocalKnowledgeBase({ dataDirectory, onWarning: (message) => warnings.push(message) });
  try {
    const manifest = await readIngestManifest(dataDirectory);
    const entries = Object.values(manifest?.documents ?? {}).map((document) => document.entry);
    const fresh = createL0Index(entries, l0IndexOptions(knowledgeBase.searchPort));
    const opened = knowledgeBase.l0Index;
    expect(opened.size).toBe(fresh.size);
    const queries = queriesOf(entries);
    let matched = 0;
    for (const query of queries) {
      const hints = opened.match(query);
      expect(hints, query).toEqual(fresh.match(query));
      if (hints.entries.length > 0) matched += 1;
    }
    const domains = [...new Set(entries.map((entry) => entry.domain).filter((domain) => domain !== undefined))].slice(0, 3);
    for (const domain of domains) {
      const scope = { filter: { category: domain }, admits: (entry: KnowledgeEntry) => entry.domain === domain };
      const freshScoped = fresh.within?.(scope) as L0Index;
      const openedScoped = opened.within?.(scope) as L0Index;
      expect(openedScoped.size).toBe(freshScoped.size);
      for (const query of queries) expect(openedScoped.match(query), `${domain}: ${query}`).toEqual(freshScoped.match(query));
    }
    return matched;
  } finally {
    await knowledgeBase.close();
  }
}

describe("the L0 snapshot of an ingested folder", () => {
  let dataDirectory: string;
  beforeAll(async () => {
    dataDirectory = await mkdtemp(join(tmpdir(), "l0-snapshot-"));
    await ingestIntoLocalIndex({ root: exampleKnowledgeBase, dataDirectory });
  });
  afterAll(async () => {
    await rm(dataDirectory, { recursive: true, force: true });
  });

  it("issue 36 item 5: the ingest writes it, and a lookup opened from it gets a fresh build's hints (English, Chinese, within a domain)", async () => {
    expect((await stat(l0SnapshotPath(dataDirectory))).size).toBeGreaterThan(1000);
    const warnings: string[] = [];
    expect(await expectFreshHints(dataDirectory, warnings)).toBeGreaterThan(20);
    expect(warnings).toEqual([]);
  });

  it("issue 36 item 5: when the snapshot is current the lookup opens it, not the manifest", async () => {
    // A snapshot of other entries, written for the folder as it is: a lookup that read the
    // manifest would not see the marker keyword; one that opens the snapshot does.
    const path = l0SnapshotPath(dataDirectory);
    const original = await readFile(path);
    const manifest = await readIngestManifest(dataDirectory);
    const entries = Object.values(manifest?.documents ?? {}).map((document) => document.entry);
    const marked = entries.map((entry, index) => (index === 0 ? { ...entry, keywords: ["snapshot-only marker"] } : entry));
    try {
      const reader = await openLocalKnowledgeBase({ dataDirectory });
      const records = reader.searchPort.stats().chunks;
      const body = snapshotL0Index(marked, l0IndexOptions(reader.searchPort));
      await reader.close();
      const key = await l0SnapshotKey(dataDirectory, records);
      const head = { format: l0SnapshotFormat, version: l0SnapshotFileVersion, key, bytes: body.length };
      const sha256 = createHash("sha256").update(body).digest("hex");
      await writeFile(path, Buffer.concat([Buffer.from(`${JSON.stringify({ ...head, sha256 })}\n`), body]));
      const knowledgeBase = await openLocalKnowledgeBase({ dataDirectory });
      try {
        expect(knowledgeBase.l0Index.match("the snapshot-only marker").entries.map((entry) => entry.id)).toEqual([entries[0]?.id]);
      } finally {
        await knowledgeBase.close();
      }
      // The CLI's opener (any store) does the same for the local index, and lists the documents from it.
      const opened = await openKnowledgeBase({ dataDirectory });
      try {
        expect(opened.l0Index.match("the snapshot-only marker").entries.map((entry) => entry.id)).toEqual([entries[0]?.id]);
        expect(opened.documents).toBe(entries.length);
        expect(opened.sources).toEqual(entries.map((entry) => entry.source));
      } finally {
        await opened.close();
      }
    } finally {
      await writeFile(path, original);
    }
  });

  it("issue 36 item 5: optimize writes the snapshot again for the merged commit; an unchanged folder's is kept", async () => {
    await optimizeLocalIndex({ dataDirectory });
    const knowledgeBase = await openLocalKnowledgeBase({ dataDirectory });
    try {
      const key = (await l0SnapshotKey(dataDirectory, knowledgeBase.searchPort.stats().chunks)) as string;
      expect("body" in (await readL0Snapshot(dataDirectory, key))).toBe(true);
      expect(await writeL0Snapshot(dataDirectory, knowledgeBase.searchPort)).toBe("current");
    } finally {
      await knowledgeBase.close();
    }
  });

  it("issue 36 review: an ingest of an unchanged folder writes a damaged snapshot again, as the fallback's warning says", async () => {
    const path = l0SnapshotPath(dataDirectory);
    const original = await readFile(path);
    const damaged = Buffer.from(original);
    damaged[damaged.length - 5] = (damaged[damaged.length - 5] as number) ^ 0xff;
    await writeFile(path, damaged);
    try {
      await ingestIntoLocalIndex({ root: exampleKnowledgeBase, dataDirectory });
      const knowledgeBase = await openLocalKnowledgeBase({ dataDirectory });
      try {
        const key = (await l0SnapshotKey(dataDirectory, knowledgeBase.searchPort.stats().chunks)) as string;
        expect("body" in (await readL0Snapshot(dataDirectory, key))).toBe(true);
      } finally {
        await knowledgeBase.close();
      }
    } finally {
      await writeFile(path, original);
    }
  });

  it("issue 36 item 5: a stale, damaged, older or missing snapshot is not used: the hints are still a fresh build's, and only damage is reported", async () => {
    const path = l0SnapshotPath(dataDirectory);
    const original = await readFile(path);
    const manifestPath = join(dataDirectory, "ingest-manifest.json");
    try {
      // Damaged: one byte of the body changed (the checksum says so).
      const damaged = Buffer.from(original);
      damaged[damaged.length - 5] = (damaged[damaged.length - 5] as number) ^ 0xff;
      await writeFile(path, damaged);
      const warnings: string[] = [];
      await expectFreshHints(dataDirectory, warnings);
      expect(warnings.join("\n")).toMatch(/L0 snapshot is not used.*does not match its checksum/);

      // Older file version.
      await writeFile(path, Buffer.from(original.toString("latin1").replace('"version":1,', '"version":0,'), "latin1"));
      const olderWarnings: string[] = [];
      await expectFreshHints(dataDirectory, olderWarnings);
      expect(olderWarnings).toEqual([]);

      // Stale: the manifest written again (a later ingest) gives it a new identity.
      await writeFile(path, original);
      const manifest = await readFile(manifestPath);
      await rm(manifestPath);
      const manifestText = JSON.parse(manifest.toString("utf8")) as { documents: Record<string, { entry: KnowledgeEntry }> };
      const first = Object.values(manifestText.documents)[0];
      if (first) first.entry.keywords = ["a keyword only the manifest has"];
      await writeFile(manifestPath, JSON.stringify(manifestText));
      const staleWarnings: string[] = [];
      await expectFreshHints(dataDirectory, staleWarnings);
      expect(staleWarnings).toEqual([]);
      const knowledgeBase = await openLocalKnowledgeBase({ dataDirectory });
      try {
        expect(knowledgeBase.l0Index.match("a keyword only the manifest has").entries.length).toBe(1);
      } finally {
        await knowledgeBase.close();
      }
      await writeFile(manifestPath, manifest);

      // Missing.
      await rm(path);
      const missingWarnings: string[] = [];
      await expectFreshHints(dataDirectory, missingWarnings);
      expect(missingWarnings).toEqual([]);
    } finally {
      await writeFile(path, original);
    }
  });
});

describe("a snapshot that cannot be written", () => {
  it("issue 36 review: the ingest and the optimize still succeed (their commits stand), and a warning names the failure", async () => {
    const dataDirectory = await mkdtemp(join(tmpdir(), "l0-snapshot-unwritable-"));
    try {
      // A directory where the snapshot goes: the rename over it fails.
      await mkdir(join(l0SnapshotPath(dataDirectory), "blocker"), { recursive: true });
      const warnings: string[] = [];
      const report = await ingestIntoLocalIndex({
        root: exampleKnowledgeBase,
        dataDirectory,
        onWarning: (message) => warnings.push(message),
      });
      expect(report.entries.length).toBeGreaterThan(20);
      expect(warnings.join("\n")).toMatch(/L0 snapshot was not written.*EISDIR/);
      const optimizeWarnings: string[] = [];
      await optimizeLocalIndex({ dataDirectory, onWarning: (message) => optimizeWarnings.push(message) });
      expect(optimizeWarnings.join("\n")).toMatch(/L0 snapshot was not written/);
      const knowledgeBase = await openLocalKnowledgeBase({ dataDirectory, onWarning: () => undefined });
      try {
        expect(knowledgeBase.l0Index.size).toBe(report.entries.length);
      } finally {
        await knowledgeBase.close();
      }
    } finally {
      await rm(dataDirectory, { recursive: true, force: true });
    }
  });
});

describe.skipIf(skipWithoutDatasets)(needsDatasets("the L0 snapshot of a real documentation tree (APISIX, English and Chinese)"), () => {
  let dataDirectory: string;
  beforeAll(async () => {
    dataDirectory = await mkdtemp(join(tmpdir(), "l0-snapshot-apisix-"));
    await ingestIntoLocalIndex({ root: join(datasetsDirectory, "apisix-docs"), dataDirectory });
  }, 300_000);
  afterAll(async () => {
    await rm(dataDirectory, { recursive: true, force: true });
  });

  it("issue 36 item 5: a lookup opened from the snapshot gets a fresh build's hints for every query, whole and within a domain", async () => {
    const warnings: string[] = [];
    expect(await expectFreshHints(dataDirectory, warnings)).toBeGreaterThan(60);
    expect(warnings).toEqual([]);
  }, 120_000);
});
