import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { LookupResult } from "@lookup-knowledge/core";
import { startPineconeTestServer, type PineconeTestServer } from "@lookup-knowledge/search-port/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtCli } from "./test/built-cli.js";

// The real command against other stores: the real Pinecone client against the local
// Pinecone server, and a libSQL file through LangChain's LibSQLVectorStore.
const cli = builtCli;
const knowledgeBase = fileURLToPath(new URL("../../../examples/knowledge-base", import.meta.url));
const run = promisify(execFile);
const apiKey = "pc-cli-secret-93d1e";
const question = "Who can issue a refund for a paid invoice?";

async function lookupKnowledge(cwd: string, environment: Record<string, string | undefined>, ...args: string[]) {
  const { DATABASE_URL: _database, PINECONE_API_KEY: _key, ...inherited } = process.env;
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { cwd, env: { ...inherited, ...environment, NO_COLOR: "1" } });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

describe("the lookup-knowledge CLI on other stores", () => {
  let cwd: string;
  let server: PineconeTestServer;
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-cli-stores-"));
    server = await startPineconeTestServer({ metric: "cosine", indexName: "handbook", apiKey });
  });
  afterAll(async () => {
    await server.close();
    await rm(cwd, { recursive: true, force: true });
  });

  it("R13: --store pinecone ingests through the Pinecone port and answers from it; the key never shows", async () => {
    await writeFile(
      join(cwd, "lookup-knowledge.config.json"),
      JSON.stringify({ store: { kind: "pinecone", controllerHostUrl: server.url } }),
    );
    const environment = { PINECONE_API_KEY: apiKey };
    const ingest = await lookupKnowledge(
      cwd,
      environment,
      "--index",
      "handbook",
      "--namespace",
      "kb",
      "ingest",
      "--no-progress",
      knowledgeBase,
    );
    expect(ingest.stderr).toBe("");
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toMatch(/into the pinecone index handbook, namespace kb/);
    expect(ingest.stdout).toMatch(/31 added/);
    expect(server.recordCount("kb")).toBeGreaterThan(31);
    // The embedded index was not touched: Pinecone's manifest lives in its own folder.
    expect(existsSync(join(cwd, ".lookup-knowledge", "index"))).toBe(false);

    const query = await lookupKnowledge(cwd, environment, "--index", "handbook", "--namespace", "kb", "query", "--json", question);
    expect(query.code).toBe(0);
    const result = JSON.parse(query.stdout) as LookupResult;
    expect(result.found).toBe(true);
    expect(result.evidenceBlocks[0]?.docId).toBe("billing/refunds");
    expect(result.retrievalTrace.hints.domains).toContain("billing");
    for (const output of [ingest.stdout, ingest.stderr, query.stdout, query.stderr]) expect(output).not.toContain(apiKey);

    const stats = await lookupKnowledge(cwd, environment, "--index", "handbook", "--namespace", "kb", "stats");
    expect(stats.stdout).toMatch(/store +pinecone index handbook, namespace kb/);
    expect(stats.stdout).toMatch(/documents +31 /);
  });

  it("R13: a refused Pinecone key is a clear error with a hint, without the key", async () => {
    const wrongKey = "pc-wrong-cli-secret-11aa";
    const { code, stderr, stdout } = await lookupKnowledge(
      cwd,
      { PINECONE_API_KEY: wrongKey },
      "--index",
      "handbook",
      "--namespace",
      "kb",
      "query",
      question,
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/401|refused|rejected/i);
    expect(stderr).toMatch(/Check PINECONE_API_KEY/);
    expect(stderr + stdout).not.toContain(wrongKey);
  });

  it("R13: --store pinecone without PINECONE_API_KEY says which variable to set", async () => {
    const { code, stderr } = await lookupKnowledge(cwd, {}, "--index", "handbook", "query", question);
    expect(code).toBe(2);
    expect(stderr).toMatch(/PINECONE_API_KEY/);
  });

  it("refuses a secret in the settings file, naming the key and not echoing the value", async () => {
    const folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-cli-secret-"));
    await writeFile(
      join(folder, "lookup-knowledge.config.json"),
      JSON.stringify({ store: { kind: "pinecone", index: "handbook", apiKey: "pc-in-file-secret" } }),
    );
    const { code, stderr } = await lookupKnowledge(folder, { PINECONE_API_KEY: apiKey }, "query", question);
    expect(code).toBe(2);
    expect(stderr).toMatch(/store\.apiKey/);
    expect(stderr).toMatch(/environment/);
    expect(stderr).not.toContain("pc-in-file-secret");
    await rm(folder, { recursive: true, force: true });
  });

  it("R13: --store libsql ingests into a libSQL file and answers from it, incrementally", async () => {
    const folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-cli-libsql-"));
    const store = ["--store", "libsql", "--store-url", `file:${join(folder, "knowledge.db")}`];
    const first = await lookupKnowledge(folder, {}, ...store, "ingest", "--no-progress", knowledgeBase);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/into the libsql file:.*knowledge\.db, table vectors/);
    const second = await lookupKnowledge(folder, {}, ...store, "ingest", "--no-progress", knowledgeBase);
    expect(second.stdout).toMatch(/0 added, 0 changed, 31 unchanged/);
    const query = await lookupKnowledge(folder, {}, ...store, "query", "--json", question);
    const result = JSON.parse(query.stdout) as LookupResult;
    expect(result.found).toBe(true);
    expect(result.evidenceBlocks[0]?.docId).toBe("billing/refunds");
    const outOfScope = JSON.parse(
      (await lookupKnowledge(folder, {}, ...store, "query", "--json", "What is the boiling point of ethanol?")).stdout,
    ) as LookupResult;
    expect(outOfScope.found).toBe(false);
    await rm(folder, { recursive: true, force: true });
  });

  it("refuses an unknown store kind and Pinecone flags on the local store, naming them", async () => {
    const unknown = await lookupKnowledge(cwd, {}, "--store", "chroma", "query", question);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/chroma/);
    const folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-cli-flags-"));
    const misplaced = await lookupKnowledge(folder, {}, "--store", "local", "--index", "handbook", "query", question);
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toMatch(/store\.index|index/);
    await rm(folder, { recursive: true, force: true });
  });
});
