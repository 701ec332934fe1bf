import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleKnowledgeBase, runLookupKnowledge } from "./test/run-lookup-knowledge.js";
import { cliEnvironment, cliPath, spawnHttpServer } from "./test/spawn-mcp-server.js";

interface CaughtError {
  what: string;
  code?: number | undefined;
  message?: string | undefined;
}

/** Every protocol error the server answers, each caught as the SDK's client throws it. */
async function protocolErrors(client: Client): Promise<CaughtError[]> {
  const caught = async (what: string, call: Promise<unknown>) =>
    call.then(
      (): CaughtError => ({ what, message: "no error" }),
      (error: { code?: number; message?: string }): CaughtError => ({ what, code: error.code, message: error.message }),
    );
  return Promise.all([
    caught("an unknown tool", client.callTool({ name: "nope", arguments: {} })),
    caught(
      "arguments that are not an object",
      client.request({ method: "tools/call", params: { name: "lookup_knowledge", arguments: "refunds" } } as never, CallToolResultSchema),
    ),
    caught(
      "a call without a tool name",
      client.request({ method: "tools/call", params: { arguments: {} } } as never, CallToolResultSchema),
    ),
    caught("an unknown resource", client.readResource({ uri: "knowledge://source/nothing/here.md" })),
    caught("a bad cursor", client.listResources({ cursor: "-3" })),
    caught("an unknown method", client.request({ method: "prompts/list", params: {} } as never, CallToolResultSchema)),
  ]);
}

function expectCodeOnce(errors: CaughtError[]): void {
  for (const error of errors) {
    expect(error.code, error.what).toEqual(expect.any(Number));
    expect(error.message, error.what).toMatch(new RegExp(`^MCP error ${error.code}: \\S`));
    expect(error.message?.split("MCP error").length, `${error.what}: ${error.message}`).toBe(2);
    expect(error.message, error.what).not.toMatch(/-32603|\n|"path"|invalid_type/);
  }
}

describe("lookup-knowledge mcp errors, as the SDK's client reads them", () => {
  let folder: string;
  let data: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-mcp-errors-"));
    data = join(folder, ".lookup-knowledge");
    expect(await runLookupKnowledge(folder, "--data", data, "ingest", "--no-progress", exampleKnowledgeBase)).toMatchObject({ code: 0 });
  }, 120_000);
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('issue 35 item 2: over stdio (the real bin), each error carries its code once ("MCP error -32602: ...", never twice)', async () => {
    const client = new Client({ name: "errors-stdio", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath, "--data", data, "mcp"],
        cwd: folder,
        env: cliEnvironment(),
        stderr: "ignore",
      }),
    );
    try {
      const errors = await protocolErrors(client);
      expectCodeOnce(errors);
      expect(errors.map((error) => error.code)).toEqual([-32602, -32602, -32602, -32002, -32602, -32601]);
      expect(errors[0]?.message).toBe('MCP error -32602: Unknown tool "nope": this server has lookup_knowledge and fetch_evidence.');
    } finally {
      await client.close();
    }
  }, 60_000);

  it("issue 35 item 2: over Streamable HTTP (the real bin), each error carries its code once", async () => {
    const server = await spawnHttpServer(folder, ["--data", data, "mcp", "--http", "--port", "0"]);
    try {
      const client = new Client({ name: "errors-http", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const errors = await protocolErrors(client);
      expectCodeOnce(errors);
      expect(errors.map((error) => error.code)).toEqual([-32602, -32602, -32602, -32002, -32602, -32601]);
      await client.close();
    } finally {
      await server.stop();
    }
  }, 60_000);
});
