import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { manifestChecksum } from "./format/manifest-text.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzerVersion } from "@lookup-knowledge/text";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { AnalyzerMismatchError } from "./errors/analyzer-mismatch-error.js";
import { openLocalSearchPort } from "./open-local-search-port.js";
import { rewriteAsFormat3 } from "./test/rewrite-as-format-3.js";

const records: KnowledgeRecord[] = [
  {
    id: "limits#chunk-0",
    content: "The limit-count plugin keeps a counter per key.",
    metadata: { docId: "limits", chunkIndex: 0, title: "Rate limits" },
  },
  { id: "cluster#chunk-0", content: "基于 Redis 集群的分布式限流。", metadata: { docId: "cluster", chunkIndex: 0, title: "分布式限流" } },
  { id: "auth#chunk-0", content: "Configure keyAuth on a route.", metadata: { docId: "auth", chunkIndex: 0 } },
];

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "local-port-analyzer-"));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

async function build(): Promise<void> {
  const writer = await openLocalSearchPort({ directory, mode: "write" });
  await writer.upsert(records);
  await writer.commit();
  await writer.close();
}

/** Rewrites the manifest as an older library would have left it (or with another analyser). */
function recordAnalyzer(analyzer: { version: string } | undefined): void {
  // Format 2 had the files of format 3.
  if (analyzer === undefined) rewriteAsFormat3(directory);
  const path = join(directory, "manifest.json");
  const manifest = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  delete manifest["analyzer"];
  if (analyzer === undefined) {
    manifest["formatVersion"] = 2;
    manifest["tokenizer"] = { version: "porter-stop-cjk-1", cjk: "bigrams" };
  } else {
    manifest["analyzer"] = analyzer;
  }
  // Written as that writer would: format 5 with its own checksum, older formats without one.
  if (analyzer === undefined) delete manifest["checksum"];
  else manifest["checksum"] = manifestChecksum(manifest);
  writeFileSync(path, JSON.stringify(manifest));
}

describe("openLocalSearchPort: the text analyser's version", () => {
  it("records analyzerVersion in the manifest", async () => {
    await build();
    const manifest = JSON.parse(readFileSync(join(directory, "manifest.json"), "utf8")) as { analyzer?: { version: string } };
    expect(manifest.analyzer).toEqual({ version: analyzerVersion });
  });

  it("refuses a reader of an index built with another analyser, naming both versions and the way out", async () => {
    await build();
    recordAnalyzer({ version: "lookup-knowledge-text/0" });
    const error = await openLocalSearchPort({ directory }).catch((caught: unknown) => caught);
    expect(AnalyzerMismatchError.isInstance(error)).toBe(true);
    const mismatch = error as AnalyzerMismatchError;
    expect(mismatch.code).toBe("analyzer_mismatch");
    expect(mismatch.indexAnalyzer).toBe("lookup-knowledge-text/0");
    expect(mismatch.libraryAnalyzer).toBe(analyzerVersion);
    expect(mismatch.message).toContain(directory);
    expect(mismatch.message).toContain("lookup-knowledge-text/0");
    expect(mismatch.message).toContain(analyzerVersion);
    expect(mismatch.message).toMatch(/ingest again/);
  });

  it("counts an index written before versions were recorded as another version", async () => {
    await build();
    recordAnalyzer(undefined);
    const error = await openLocalSearchPort({ directory }).catch((caught: unknown) => caught);
    expect(AnalyzerMismatchError.isInstance(error)).toBe(true);
    expect((error as AnalyzerMismatchError).indexAnalyzer).toMatch(/none recorded.*porter-stop-cjk-1/);
  });

  it("rebuilds the lexicon of every record when a writer opens such an index, and commits it at once", async () => {
    await build();
    const search = async (query: string) => {
      // No minimum-evidence cut: the test is about which records rank first, not whether they answer.
      const reader = await openLocalSearchPort({ directory, minScore: 0 });
      try {
        return (await reader.search({ query, topK: 3 })).map((hit) => hit.id);
      } finally {
        await reader.close();
      }
    };
    const before = await Promise.all(["limit count", "分布式", "key auth", "rate limits"].map(search));
    recordAnalyzer(undefined);
    const writer = await openLocalSearchPort({ directory, mode: "write" });
    expect(writer.stats().chunks).toBe(records.length);
    await writer.close();
    const manifest = JSON.parse(readFileSync(join(directory, "manifest.json"), "utf8")) as {
      analyzer?: { version: string };
      generation: number;
    };
    expect(manifest).toMatchObject({ analyzer: { version: analyzerVersion }, generation: 2 });
    expect(await Promise.all(["limit count", "分布式", "key auth", "rate limits"].map(search))).toEqual(before);
    expect(before.map((ids) => ids[0])).toEqual(["limits#chunk-0", "cluster#chunk-0", "auth#chunk-0", "limits#chunk-0"]);
  });
});
