import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleKnowledgeBase as knowledgeBase, runLookupKnowledge as lookupKnowledge } from "./test/run-lookup-knowledge.js";

describe("the lookup-knowledge CLI and the text analyser's version", () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-cli-analyzer-"));
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it("refuses to query an index of an older analyser, says to ingest again, and the next ingest rebuilds it", async () => {
    expect((await lookupKnowledge(cwd, "ingest", knowledgeBase)).code).toBe(0);
    // As an index written before the analyser's version was recorded.
    const path = join(cwd, ".lookup-knowledge", "index", "manifest.json");
    const { segments, files, ...manifest } = JSON.parse(readFileSync(path, "utf8")) as {
      segments: Array<{ terms: number; postings: number; files: Record<string, unknown> }>;
      files: Record<string, unknown>;
    } & Record<string, unknown>;
    delete manifest["analyzer"];
    // An index of format 2 had no checksum of its manifest, and listed one generation's files itself.
    delete manifest["checksum"];
    const [segment] = segments;
    expect(segments).toHaveLength(1);
    writeFileSync(
      path,
      JSON.stringify({
        ...manifest,
        terms: segment?.terms,
        postings: segment?.postings,
        files: { ...segment?.files, ...files },
        formatVersion: 2,
        tokenizer: { version: "porter-stop-cjk-1", cjk: "bigrams" },
      }),
    );

    const refused = await lookupKnowledge(cwd, "query", "Who can issue a refund for a paid invoice?");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/built with text analyser "none recorded/);
    expect(refused.stderr).toMatch(/Run `lookup-knowledge ingest <folder>` again/);

    expect((await lookupKnowledge(cwd, "ingest", knowledgeBase)).code).toBe(0);
    const answered = await lookupKnowledge(cwd, "query", "Who can issue a refund for a paid invoice?");
    expect(answered.code).toBe(0);
    expect(answered.stdout).toMatch(/found +true/);
  });
});
