import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleKnowledgeBase, runLookupKnowledge as lookupKnowledge } from "./test/run-lookup-knowledge.js";

const question = "How long do refunds take?";

describe("traces after traces.store-query went from text to hash", () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-cli-hash-on-read-"));
    expect((await lookupKnowledge(cwd, "ingest", exampleKnowledgeBase)).code).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it("R28: lists a lookup kept as text hashed, as the same lookup made under hash is kept, and never shows its text", async () => {
    expect((await lookupKnowledge(cwd, "query", question)).code).toBe(0);
    const asText = JSON.parse((await lookupKnowledge(cwd, "traces", "--json")).stdout) as Array<{ query: string }>;
    expect(asText.map((record) => record.query)).toEqual([question]);

    await writeFile(join(cwd, "lookup-knowledge.config.json"), JSON.stringify({ "traces.store-query": "hash" }));
    expect((await lookupKnowledge(cwd, "query", question)).code).toBe(0);
    for (const args of [["traces"], ["traces", "--json"], ["traces", "--json", "--query", question]]) {
      const { code, stdout } = await lookupKnowledge(cwd, ...args);
      expect(code, args.join(" ")).toBe(0);
      expect(stdout, args.join(" ")).not.toContain("refunds take");
    }
    const listed = JSON.parse((await lookupKnowledge(cwd, "traces", "--json")).stdout) as Array<{ id: string; query: string }>;
    expect(listed).toHaveLength(2);
    // A search by the text still finds both: the one kept as text by its text, the other by its hash.
    const searched = JSON.parse((await lookupKnowledge(cwd, "traces", "--json", "--query", question)).stdout) as Array<{ id: string }>;
    expect(searched.map((record) => record.id)).toEqual(listed.map((record) => record.id));
    const [newer, older] = listed;
    expect(older?.query).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    // One query, one hash: kept as text or hashed, it reads the same.
    expect(older?.query).toBe(newer?.query);
    const one = await lookupKnowledge(cwd, "trace", older?.id ?? "", "--json");
    expect(one.code).toBe(0);
    expect(one.stdout).not.toContain("refunds take");
  }, 180_000);
});
