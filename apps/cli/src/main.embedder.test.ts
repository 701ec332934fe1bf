import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleKnowledgeBase as knowledgeBase, runLookupKnowledge as lookupKnowledge } from "./test/run-lookup-knowledge.js";

describe("the lookup-knowledge CLI and the embedder's version", () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-cli-embedder-"));
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it("refuses to query an index of an earlier embedder version, says to ingest again, and the next ingest rebuilds it", async () => {
    expect((await lookupKnowledge(cwd, "ingest", knowledgeBase)).code).toBe(0);
    // As an index an earlier release wrote: its manifest names version 1 of the offline embedder.
    const path = join(cwd, ".lookup-knowledge", "index", "manifest.json");
    const { checksum: _, ...fields } = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown> & {
      embedder: { version: string };
    };
    fields.embedder.version = "1";
    const checksum = createHash("sha256").update(JSON.stringify(fields)).digest("hex");
    writeFileSync(path, JSON.stringify({ ...fields, checksum }, null, 2));

    const refused = await lookupKnowledge(cwd, "query", "Who can issue a refund for a paid invoice?");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/version "1"/);
    expect(refused.stderr).toMatch(/run `lookup-knowledge ingest <folder>` again/);

    const rebuilt = await lookupKnowledge(cwd, "ingest", knowledgeBase);
    expect(rebuilt.code).toBe(0);
    const answered = await lookupKnowledge(cwd, "query", "Who can issue a refund for a paid invoice?");
    expect(answered.code).toBe(0);
    expect(answered.stdout).toMatch(/found +true/);
    expect(JSON.parse(readFileSync(path, "utf8")).embedder.version).toBe("2");
  });
});
