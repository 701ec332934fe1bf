import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LookupResult } from "@lookup-knowledge/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLookupKnowledge } from "./test/run-lookup-knowledge.js";

describe("issue 36 item 2: lookup-knowledge optimize merges the index's segments into one", () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-optimize-"));
    await mkdir(join(cwd, "kb"));
    await writeFile(join(cwd, "kb", "refunds.md"), "# Refunds\n\nOwners can refund a paid invoice within 180 days.\n");
    await writeFile(join(cwd, "kb", "tokens.md"), "# API tokens\n\nRotate an API token in the dashboard; the old one stops at once.\n");
    expect((await runLookupKnowledge(cwd, "--data", "data", "ingest", "--no-progress", "kb")).code).toBe(0);
    // Each ingest that changes a page commits a segment of its chunks; the old chunks are deleted.
    await writeFile(join(cwd, "kb", "refunds.md"), "# Refunds\n\nOwners and admins can refund a paid invoice within 90 days.\n");
    expect((await runLookupKnowledge(cwd, "--data", "data", "ingest", "--no-progress", "kb")).code).toBe(0);
    await writeFile(join(cwd, "kb", "audit.md"), "# Audit log\n\nAdmins can see the audit log of every workspace.\n");
    expect((await runLookupKnowledge(cwd, "--data", "data", "ingest", "--no-progress", "kb")).code).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it("reports the segments before and after, and the answers stay the same", async () => {
    const stats = await runLookupKnowledge(cwd, "--data", "data", "stats", "--json");
    const before = JSON.parse(stats.stdout) as { segments: number; chunks: number };
    expect(before.segments).toBe(3);
    const query = async () => {
      const run = await runLookupKnowledge(cwd, "--data", "data", "query", "Who can refund an invoice?", "--json");
      expect(run.code).toBe(0);
      return (JSON.parse(run.stdout) as LookupResult).evidenceBlocks.map((block) => [block.evidenceKey, block.content]);
    };
    const answered = await query();
    expect(answered[0]?.[1]).toContain("90 days");

    const text = await runLookupKnowledge(cwd, "--data", "data", "optimize");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^segments {5}3 -> 1$/m);
    expect(text.stdout).toMatch(new RegExp(`^chunks {7}${before.chunks}$`, "m"));
    expect(await query()).toEqual(answered);

    const json = await runLookupKnowledge(cwd, "--data", "data", "optimize", "--json");
    expect(JSON.parse(json.stdout)).toMatchObject({ before: { segments: 1 }, after: { segments: 1, chunks: before.chunks } });
    expect((await runLookupKnowledge(cwd, "--data", "data", "stats")).stdout).toMatch(/^on disk +[\d.]+ MB in 1 segment$/m);
  });

  it("refuses a folder without an index (creating nothing), and a store that is not the embedded index, saying why", async () => {
    const empty = await runLookupKnowledge(cwd, "--data", "nothing-here", "optimize");
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("Run `lookup-knowledge ingest <folder>` first");
    expect(existsSync(join(cwd, "nothing-here"))).toBe(false);
    const pinecone = await runLookupKnowledge(cwd, "--data", "data", "--store", "pinecone", "--index", "kb", "optimize");
    expect(pinecone.code).toBe(2);
    expect(pinecone.stderr).toContain("optimize merges the embedded index's segments; the settings name the pinecone store");
  });
});
