import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createKnowledgeMcpServer } from "./create-knowledge-mcp-server.js";
import { StdioLineTransport } from "./stdio-line-transport.js";
import { useIngestedExample } from "./test/example-knowledge-base.js";
import { lookupMetaOf } from "./test/result-meta.js";

/** The client's end of a pair of pipes: what it writes is the server's stdin; the server's stdout lines come back parsed. */
function pipes(): { stdin: PassThrough; stdout: PassThrough; lines: unknown[]; client: Transport } {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: unknown[] = [];
  let buffered = "";
  const client: Transport = {
    async start() {},
    async send(message: JSONRPCMessage) {
      stdin.write(`${JSON.stringify(message)}\n`);
    },
    async close() {
      client.onclose?.();
    },
  };
  stdout.setEncoding("utf8").on("data", (text: string) => {
    buffered += text;
    for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
      const line = JSON.parse(buffered.slice(0, end)) as JSONRPCMessage;
      buffered = buffered.slice(end + 1);
      lines.push(line);
      client.onmessage?.(line);
    }
  });
  return { stdin, stdout, lines, client };
}

describe("MCP over stdio: lines the server cannot read", () => {
  const ingested = useIngestedExample();

  it("issue 33: a line that is not JSON, no JSON-RPC message or over the size limit is answered with an error and the server keeps serving", async () => {
    const { stdin, stdout, lines, client: clientTransport } = pipes();
    const server = createKnowledgeMcpServer({ retriever: ingested().knowledgeBase.retriever, store: ingested().knowledgeBase.store });
    await server.connect(new StdioLineTransport(stdin, stdout, 64 * 1024));
    let closed = false;
    server.onclose = () => {
      closed = true;
    };
    const client = new Client({ name: "test-client", version: "1.0.0" });
    await client.connect(clientTransport);

    stdin.write("{ not json\n");
    stdin.write(`${JSON.stringify({ jsonrpc: "1.0", id: 7, method: "tools/list" })}\n`);
    // Over the limit, written in pieces as a pipe delivers it.
    const long = `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"lookup_knowledge","arguments":{"query":"${"x".repeat(100 * 1024)}"}}}`;
    for (let at = 0; at < long.length; at += 8192) stdin.write(long.slice(at, at + 8192));
    stdin.write("\n");
    const result = await client.callTool({ name: "lookup_knowledge", arguments: { query: "Who can issue a refund for a paid invoice?" } });

    expect(lookupMetaOf(result).found).toBe(true);
    expect(closed).toBe(false);
    const errors = lines.filter((line) => (line as { error?: unknown }).error !== undefined);
    expect(errors).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: a line that is not JSON was received" } },
      { jsonrpc: "2.0", id: 7, error: { code: -32600, message: "Invalid Request: a line that is no JSON-RPC 2.0 message was received" } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: a line longer than 65536 bytes was dropped" } },
    ]);
    await client.close();
    await server.close();
  });
});
