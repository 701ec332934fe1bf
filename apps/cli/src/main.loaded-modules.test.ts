import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadedModules } from "@lookup-knowledge/vitest-config/loaded-modules";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleKnowledgeBase, runLookupKnowledge } from "./test/run-lookup-knowledge.js";

// The real command, built (turbo builds the package before its tests). Each command loads
// its own modules when it runs: what a command does not use, it does not pay for at start.
const cli = fileURLToPath(new URL("../dist/main.js", import.meta.url));

const markdownParser = /\/(@lezer\+|micromark|mdast-util-)/;
const localIndex = /\/packages\/search-port\/dist\/local\//;
const retriever = /\/apps\/agent-tool\/dist\/create-knowledge-retriever\.js$/;
const traceDatabase = /\/(@electric-sql\+pglite|drizzle-orm)@/;

describe("what each command loads", () => {
  let cwd: string;
  const command = (...args: string[]) => {
    const { DATABASE_URL: _ignored, ...environment } = process.env;
    const run = loadedModules([cli, ...args], { cwd, env: { ...environment, NO_COLOR: "1" } });
    expect(run.status, run.stderr).toBe(0);
    return run.urls;
  };
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-cli-loads-"));
    expect((await runLookupKnowledge(cwd, "ingest", "--no-progress", exampleKnowledgeBase)).code).toBe(0);
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it("--help loads no store, no retriever, no Markdown parser and no trace database", () => {
    const urls = command("--help");
    expect(urls.some((url) => url.endsWith("/commander/index.js") || url.includes("/commander@"))).toBe(true);
    expect(
      urls.filter((url) => localIndex.test(url) || retriever.test(url) || markdownParser.test(url) || traceDatabase.test(url)),
    ).toEqual([]);
  });

  it("a query loads the local index and the retriever, and no Markdown parser", () => {
    const urls = command("query", "Who can issue a refund for a paid invoice?");
    expect(urls.some((url) => localIndex.test(url))).toBe(true);
    expect(urls.some((url) => retriever.test(url))).toBe(true);
    expect(urls.filter((url) => markdownParser.test(url))).toEqual([]);
  });

  it("traces loads the trace database, and no Markdown parser (the check sees the database when it is there)", () => {
    const urls = command("traces");
    expect(urls.some((url) => traceDatabase.test(url))).toBe(true);
    expect(urls.filter((url) => markdownParser.test(url))).toEqual([]);
  });

  it("an ingest loads the Markdown parser and the local index, and no retriever (the check sees a parser when it is there)", () => {
    const urls = command("ingest", "--no-progress", exampleKnowledgeBase);
    expect(urls.some((url) => markdownParser.test(url))).toBe(true);
    expect(urls.some((url) => localIndex.test(url))).toBe(true);
    expect(urls.filter((url) => retriever.test(url) || traceDatabase.test(url))).toEqual([]);
  });
});
