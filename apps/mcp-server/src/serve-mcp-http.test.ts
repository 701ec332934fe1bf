import { request as httpRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { createKnowledgeMcpServer, type KnowledgeMcpServerOptions } from "./create-knowledge-mcp-server.js";
import { serveMcpHttp, type McpHttpOptions } from "./serve-mcp-http.js";
import { textOf } from "./test/connect-client.js";
import { useIngestedExample } from "./test/example-knowledge-base.js";
import { fetchMetaOf, lookupMetaOf } from "./test/result-meta.js";

/** A raw request to the server, with any Host, Origin or body: what a browser page or a hostile client could send. */
function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: options.method ?? "POST", headers: options.headers ?? {} },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    sent.on("error", reject);
    sent.end(options.body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const jsonHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("serveMcpHttp (Streamable HTTP on loopback, stateless)", () => {
  const ingested = useIngestedExample();

  async function serve(options: McpHttpOptions = {}, server: Partial<KnowledgeMcpServerOptions> = {}) {
    const served = await serveMcpHttp(
      () => createKnowledgeMcpServer({ retriever: ingested().knowledgeBase.retriever, store: ingested().knowledgeBase.store, ...server }),
      { port: 0, ...options },
    );
    return Object.assign(served, { [Symbol.asyncDispose]: () => served.close() });
  }

  async function connect(url: string, headers: Record<string, string> = {}) {
    const client = new Client({ name: "http-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
  }

  it("issue 12: the SDK's client lists the tools and resources and calls both tools over HTTP", async () => {
    await using server = await serve();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await using client = await connect(server.url);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["lookup_knowledge", "fetch_evidence"]);
    expect((await client.listResources()).resources.length).toBe(ingested().knowledgeBase.documents);
    const found = await client.callTool({ name: "lookup_knowledge", arguments: { query: "Who can issue a refund for a paid invoice?" } });
    const structured = lookupMetaOf(found);
    expect(structured.found).toBe(true);
    const fetched = await client.callTool({ name: "fetch_evidence", arguments: { document_id: structured.evidence[0]?.document_id } });
    expect(fetched.isError).toBeFalsy();
    expect(fetchMetaOf(fetched).source).toBe("billing/refunds.md");
    const none = await client.callTool({ name: "lookup_knowledge", arguments: { query: "How many moons does Jupiter have?" } });
    expect(lookupMetaOf(none)).toMatchObject({ found: false, evidenceStatus: "no_evidence" });
    const bad = await client.callTool({ name: "lookup_knowledge", arguments: { query: "" } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^query must contain text\./);
  });

  it("issue 12: refuses a foreign Host or Origin (DNS rebinding), other paths and methods, and non-JSON bodies", async () => {
    await using server = await serve();
    const port = new URL(server.url).port;
    const ok = await rawRequest(server.url, { headers: { ...jsonHeaders, origin: `http://localhost:${port}` }, body: initialize });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ result: { serverInfo: { name: "lookup-knowledge" } } });
    const rebound = await rawRequest(server.url, { headers: { ...jsonHeaders, host: `attacker.example:${port}` }, body: initialize });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.message).toMatch(/Host name \(DNS rebinding protection\)/);
    const foreign = await rawRequest(server.url, { headers: { ...jsonHeaders, origin: "https://attacker.example" }, body: initialize });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.message).toMatch(/Origin/);
    expect((await rawRequest(server.url.replace(/\/mcp$/, "/other"), { headers: jsonHeaders, body: initialize })).status).toBe(404);
    expect((await rawRequest(server.url, { method: "GET", headers: jsonHeaders })).status).toBe(405);
    expect((await rawRequest(server.url, { method: "DELETE", headers: jsonHeaders })).status).toBe(405);
    const garbage = await rawRequest(server.url, { headers: jsonHeaders, body: "{not json" });
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body).error).toMatchObject({ code: -32700 });
  });

  it("issue 34: Host and Origin: the loopback names and any 127.x.y.z as Host, only localhost, 127.0.0.1, [::1] and allowed origins as Origin", async () => {
    await using server = await serve({ allowedOrigins: ["https://app.example.com"] });
    const port = Number(new URL(server.url).port);
    // [headers, status, the header refused]: 200 answered, 403 refused. The server is bound to 127.0.0.1.
    const cases: Array<[Record<string, string>, 200] | [Record<string, string>, 403, "Host" | "Origin"]> = [
      [{ host: `127.0.0.1:${port}` }, 200],
      [{ host: `localhost:${port}` }, 200],
      [{ host: `127.0.0.2:${port}` }, 200],
      [{ host: `[::1]:${port}`, origin: `http://localhost:${port}` }, 200],
      [{ host: `127.0.0.1:${port}`, origin: `http://[::1]:${port}` }, 200],
      [{ host: `127.0.0.1:${port}`, origin: "https://app.example.com" }, 200],
      [{ host: `evil.example:${port}` }, 403, "Host"],
      [{ host: `evil.example:${port}`, origin: `http://evil.example:${port}` }, 403, "Host"],
      [{ host: `localhost.:${port}` }, 403, "Host"],
      [{ host: `app.localhost:${port}` }, 403, "Host"],
      [{ host: `localhost:${port + 1}` }, 403, "Host"],
      [{ host: `127.0.0.1:${port}`, origin: `http://127.9.9.9:${port}` }, 403, "Origin"],
      [{ host: `127.0.0.2:${port}`, origin: `http://127.0.0.2:${port}` }, 403, "Origin"],
      [{ host: `127.0.0.1:${port}`, origin: `https://localhost:${port}` }, 403, "Origin"],
      [{ host: `127.0.0.1:${port}`, origin: `http://evil.example:${port}` }, 403, "Origin"],
      [{ host: `127.0.0.1:${port}`, origin: "https://app.example.com.evil" }, 403, "Origin"],
      [{ host: `127.0.0.1:${port}`, origin: "null" }, 403, "Origin"],
    ];
    const messages = {
      Host: "Forbidden: this server does not answer to that Host name (DNS rebinding protection).",
      Origin: "Forbidden: requests from that Origin are not accepted.",
    };
    for (const [headers, status, refused] of cases) {
      const answer = await rawRequest(server.url, { headers: { ...jsonHeaders, ...headers }, body: initialize });
      expect({ headers, status: answer.status }).toEqual({ headers, status });
      if (refused !== undefined)
        expect({ headers, message: JSON.parse(answer.body).error.message }).toEqual({ headers, message: messages[refused] });
    }
  });

  it("issue 12: a body over the limit is answered 413, declared or streamed", async () => {
    await using server = await serve({ maxBodyBytes: 4096 });
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "lookup_knowledge", arguments: { query: "x".repeat(5000) } },
    });
    const declared = await rawRequest(server.url, {
      headers: { ...jsonHeaders, "content-length": String(Buffer.byteLength(big)) },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error.message).toMatch(/at most 4096 bytes/);
    const streamed = await rawRequest(server.url, { headers: { ...jsonHeaders, "transfer-encoding": "chunked" }, body: big });
    expect(streamed.status).toBe(413);
    expect((await rawRequest(server.url, { headers: jsonHeaders, body: initialize })).status).toBe(200);
  });

  it("issue 12: with a token, a request without it or with a wrong one is 401; the right bearer passes", async () => {
    const token = "a-long-random-test-token-0123456789";
    await using server = await serve({ token });
    expect((await rawRequest(server.url, { headers: jsonHeaders, body: initialize })).status).toBe(401);
    expect((await rawRequest(server.url, { headers: { ...jsonHeaders, authorization: "Bearer wrong" }, body: initialize })).status).toBe(
      401,
    );
    await expect(connect(server.url)).rejects.toThrow();
    await using client = await connect(server.url, { authorization: `Bearer ${token}` });
    expect((await client.listTools()).tools).toHaveLength(2);
  });

  it("issue 12: binds 127.0.0.1 by default and says clearly when the port is taken", async () => {
    await using server = await serve();
    const port = Number(new URL(server.url).port);
    await expect(
      serveMcpHttp(
        () => createKnowledgeMcpServer({ retriever: ingested().knowledgeBase.retriever, store: ingested().knowledgeBase.store }),
        {
          port,
        },
      ),
    ).rejects.toThrow(new RegExp(`Cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use`));
  });

  it("issue 12: close lets a request in flight finish, then refuses new connections", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = {
      lookup: async (query: string, options?: { signal?: AbortSignal }) => {
        await gate;
        return ingested().knowledgeBase.retriever.lookup(query, options);
      },
    };
    const server = await serve({}, { retriever: slow });
    await using client = await connect(server.url);
    const call = client.callTool({ name: "lookup_knowledge", arguments: { query: "Who can issue a refund for a paid invoice?" } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = server.close();
    setTimeout(release, 100);
    const result = await call;
    expect(lookupMetaOf(result).found).toBe(true);
    await closed;
    await expect(rawRequest(server.url, { headers: jsonHeaders, body: initialize })).rejects.toThrow(/ECONNREFUSED/);
  });
});
