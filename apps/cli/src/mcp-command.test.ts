import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { lookupResultMetaSchema, resultMetaKey } from "@lookup-knowledge/mcp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleKnowledgeBase, runLookupKnowledge } from "./test/run-lookup-knowledge.js";
import { cliEnvironment, cliPath, spawnHttpServer } from "./test/spawn-mcp-server.js";

const answerable = "Who can issue a refund for a paid invoice?";
const outOfScope = "Who painted the ceiling of the Sistine Chapel?";

/** What a lookup answer carries for programs beside its text (`_meta`). */
function metaOf(result: { _meta?: Record<string, unknown> | undefined }) {
  return lookupResultMetaSchema.parse(result._meta?.[resultMetaKey]);
}

function textOf(result: unknown): string {
  return ((result as { content?: unknown }).content as Array<{ type: string; text?: string }>).map((part) => part.text ?? "").join("\n");
}

describe("lookup-knowledge mcp", () => {
  let folder: string;
  let data: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-mcp-"));
    data = join(folder, ".lookup-knowledge");
    const ingested = await runLookupKnowledge(folder, "--data", data, "ingest", "--no-progress", exampleKnowledgeBase);
    expect(ingested).toMatchObject({ code: 0 });
  }, 120_000);
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("issue 12: on stdio (the real bin spawned by the SDK's client): tools, resources, both tools, no evidence, bad input; stdout holds only the protocol", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, "--data", data, "mcp"],
      cwd: folder,
      env: cliEnvironment(),
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    // A line on stdout that is not a JSON-RPC message reaches the client as an error.
    const protocolErrors: Error[] = [];
    client.onerror = (error) => protocolErrors.push(error);
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["lookup_knowledge", "fetch_evidence"]);
      const { resources } = await client.listResources();
      expect(resources.find((resource) => resource.uri === "knowledge://source/billing/refunds.md")).toMatchObject({ title: "Refunds" });
      const found = await client.callTool({ name: "lookup_knowledge", arguments: { query: answerable } });
      const structured = metaOf(found);
      expect(structured.found).toBe(true);
      expect(structured.evidence[0]?.source).toBe("billing/refunds.md");
      expect(textOf(found)).toContain(`<evidence document_id="${structured.evidence[0]?.document_id}"`);
      const fetched = await client.callTool({ name: "fetch_evidence", arguments: { document_id: structured.evidence[0]?.document_id } });
      expect(fetched.isError).toBeFalsy();
      const none = await client.callTool({ name: "lookup_knowledge", arguments: { query: outOfScope } });
      expect(metaOf(none)).toMatchObject({ found: false, evidenceStatus: "no_evidence" });
      const bad = await client.callTool({ name: "lookup_knowledge", arguments: { query: "  ", limit: 3 } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toBe(
        'query must contain text; unknown argument "limit". Call lookup_knowledge again with only these arguments: {"query": "<a question or keywords>"}.',
      );
    } finally {
      await client.close();
    }
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(protocolErrors).toEqual([]);
    expect(stderr).toMatch(
      /lookup-knowledge mcp: data .*; settings none \(no lookup-knowledge\.config\.json here; pass --config\); store local index \(31 documents\); fixed filter off; caller filters refused/,
    );
    // Each lookup left its trace, as one through `query` does.
    const traces = await runLookupKnowledge(folder, "--data", data, "traces", "--json", "--limit", "10");
    const queries = (JSON.parse(traces.stdout) as Array<{ query: string; found: boolean }>).map((record) => [record.query, record.found]);
    expect(queries).toEqual(
      expect.arrayContaining([
        [answerable, true],
        [outOfScope, false],
      ]),
    );
  }, 240_000); // the first `traces` creates the embedded trace database

  it("issue 12: --http serves Streamable HTTP on 127.0.0.1 and stops cleanly on SIGTERM", async () => {
    const server = await spawnHttpServer(folder, ["--data", data, "mcp", "--http", "--port", "0"]);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = new Client({ name: "http-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const found = await client.callTool({ name: "lookup_knowledge", arguments: { query: answerable } });
      expect(metaOf(found).found).toBe(true);
      await client.close();
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  it("issue 12: the bearer token comes from LOOKUP_KNOWLEDGE_MCP_TOKEN; one on the command line is refused", async () => {
    const refused = await runLookupKnowledge(folder, "--data", data, "mcp", "--http", "--token", "secret-secret-secret");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /--token is refused: a token on the command line can be read by other users of this machine\. Set LOOKUP_KNOWLEDGE_MCP_TOKEN instead\./,
    );
    expect(refused.stderr).not.toContain("secret-secret-secret");
    const token = "0123456789abcdef0123456789abcdef";
    const server = await spawnHttpServer(folder, ["--data", data, "mcp", "--http", "--port", "0"], { LOOKUP_KNOWLEDGE_MCP_TOKEN: token });
    try {
      expect(server.stderr()).toContain("bearer token required");
      expect(server.stderr()).not.toContain(token);
      const anonymous = new Client({ name: "anonymous", version: "1.0.0" });
      await expect(anonymous.connect(new StreamableHTTPClientTransport(new URL(server.url)))).rejects.toThrow();
      const client = new Client({ name: "authorised", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
      );
      expect((await client.listTools()).tools).toHaveLength(2);
      await client.close();
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("issue 12: bad options and settings are refused with a sentence naming them", async () => {
    const stdioPort = await runLookupKnowledge(folder, "--data", data, "mcp", "--port", "3000");
    expect(stdioPort).toMatchObject({ code: 2 });
    expect(stdioPort.stderr).toMatch(/--host and --port apply to --http only/);
    const badPort = await runLookupKnowledge(folder, "--data", data, "mcp", "--http", "--port", "http");
    expect(badPort.stderr).toMatch(/--port must be a whole number from 0 to 65535, got "http"/);
    const settings = join(folder, "bad-mcp.json");
    await writeFile(settings, JSON.stringify({ mcp: { filter: { category: { $like: "billing" } } } }));
    const badFilter = await runLookupKnowledge(folder, "--config", settings, "--data", data, "mcp");
    expect(badFilter.code).toBe(2);
    expect(badFilter.stderr).toMatch(/mcp\.filter: Invalid metadata filter at category.*\(in .*bad-mcp\.json\)/);
    await writeFile(settings, JSON.stringify({ mcp: { callerFilters: true } }));
    const unknownKey = await runLookupKnowledge(folder, "--config", settings, "--data", data, "mcp");
    expect(unknownKey.stderr).toMatch(/mcp.*callerFilters|Unrecognized key.*callerFilters/);
    const empty = await runLookupKnowledge(folder, "--data", join(folder, "nothing-here"), "mcp");
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/Run `lookup-knowledge ingest <folder>` first/);
  }, 60_000);
});
