import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AnalyzerMismatchError, openLocalSearchPort } from "@lookup-knowledge/search-port/local";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { localIndexDirectory } from "./local-data-folder.js";
import { optimizeLocalIndex } from "./optimize-local-index.js";

let dataDirectory: string;
beforeEach(async () => {
  dataDirectory = await mkdtemp(join(tmpdir(), "optimize-local-index-"));
});
afterEach(async () => {
  await rm(dataDirectory, { recursive: true, force: true });
});

/** Commits `count` one-record changes, each its own segment. */
async function commitsOf(count: number, embeddings: boolean): Promise<void> {
  const { createOfflineEmbeddings } = await import("@lookup-knowledge/embeddings");
  const writer = await openLocalSearchPort({
    directory: localIndexDirectory(dataDirectory),
    mode: "write",
    ...(embeddings ? { embeddings: createOfflineEmbeddings() } : {}),
  });
  for (let index = 0; index < count; index += 1) {
    await writer.upsert([{ id: `doc${index}#chunk-0`, content: `refund policy number ${index}`, metadata: { docId: `doc${index}` } }]);
    await writer.commit();
  }
  await writer.close();
}

describe("issue 36 item 2: optimizeLocalIndex merges the embedded index into one segment", () => {
  for (const embeddings of [true, false]) {
    it(`merges ${embeddings ? "an index with the offline embedder's vectors" : "a lexical-only index"}, keeping every record`, async () => {
      await commitsOf(4, embeddings);
      const report = await optimizeLocalIndex({ dataDirectory });
      expect(report.before).toMatchObject({ segments: 4, chunks: 4 });
      expect(report.after).toMatchObject({ segments: 1, chunks: 4 });
      expect(report.after.embedder === undefined).toBe(!embeddings);
    });
  }

  it("analyses an index of another text analyser again (as ingest would) instead of refusing it", async () => {
    await commitsOf(3, true);
    const path = join(localIndexDirectory(dataDirectory), "manifest.json");
    const { checksum: _, ...fields } = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    fields.analyzer = { version: "an-older-analyser" };
    const checksum = createHash("sha256").update(JSON.stringify(fields)).digest("hex");
    await writeFile(path, JSON.stringify({ ...fields, checksum }));
    await expect(openLocalSearchPort({ directory: localIndexDirectory(dataDirectory) })).rejects.toSatisfy(
      AnalyzerMismatchError.isInstance,
    );
    const report = await optimizeLocalIndex({ dataDirectory });
    expect(report.after).toMatchObject({ segments: 1, chunks: 3 });
    const reader = await openLocalSearchPort({ directory: localIndexDirectory(dataDirectory) });
    expect(reader.stats().chunks).toBe(3);
    await reader.close();
  });
});
