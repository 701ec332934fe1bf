import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCliConfig } from "./cli-config.js";

async function refusal(cwd: string, settings: unknown): Promise<string> {
  await writeFile(join(cwd, "lookup-knowledge.config.json"), typeof settings === "string" ? settings : JSON.stringify(settings));
  return loadCliConfig({ cwd }).then(
    () => "accepted",
    (error: Error) => error.message,
  );
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe("loadCliConfig refusals", () => {
  let cwd: string;
  let file: string;
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-config-"));
    file = join(cwd, "lookup-knowledge.config.json");
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it.each([
    [{ ingest: { maxChunkChars: 5 } }, "ingest.maxChunkChars=5"],
    [{ ingest: { include: "docs/**" } }, 'ingest.include="docs/**"'],
    [{ "rag.return-n": "lots" }, 'rag.return-n="lots"'],
    [{ "rag.context-budget": { value: 1 } }, "rag.context-budget=object"],
    [{ "traces.store-query": "md5" }, 'traces.store-query="md5"'],
  ])("names the key and its value (never the file as the value), and the file once: %j", async (settings, shown) => {
    const message = await refusal(cwd, settings);
    expect(message).toContain(shown);
    expect(occurrences(message, file)).toBe(1);
  });

  it("names the file once when it is not JSON, not an object, or cannot be read", async () => {
    expect(await refusal(cwd, "{ nope")).toMatch(/^The settings file .* is not valid JSON: /);
    expect(occurrences(await refusal(cwd, "{ nope"), file)).toBe(1);
    expect(await refusal(cwd, "[1]")).toMatch(/must hold a JSON object/);
    const missing = await loadCliConfig({ cwd, configFile: "missing.json" }).catch((error: Error) => error.message);
    expect(missing).toBe(`Cannot read the settings file ${join(cwd, "missing.json")}: there is no such file.`);
  });
});

describe("loadCliConfig store", () => {
  it("R13: lays the command-line flags over the file's store, and a --store of another kind starts afresh", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-store-config-"));
    await writeFile(
      join(cwd, "lookup-knowledge.config.json"),
      JSON.stringify({ store: { kind: "pinecone", index: "handbook", metric: "cosine" } }),
    );
    expect((await loadCliConfig({ cwd })).store).toEqual({ kind: "pinecone", index: "handbook", metric: "cosine" });
    expect((await loadCliConfig({ cwd, store: { namespace: "support" } })).store).toEqual({
      kind: "pinecone",
      index: "handbook",
      metric: "cosine",
      namespace: "support",
    });
    expect((await loadCliConfig({ cwd, store: { kind: "libsql", url: "file:kb.db" } })).store).toEqual({
      kind: "libsql",
      url: "file:kb.db",
    });
    expect((await loadCliConfig({ cwd, store: { kind: "local" } })).store).toEqual({ kind: "local" });
    await rm(cwd, { recursive: true, force: true });
  });
});
