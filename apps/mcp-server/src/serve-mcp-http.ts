import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { LookupKnowledgeError, errorMessage } from "@lookup-knowledge/core";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { checkHttpRequest, httpAccess, type Refusal } from "./check-http-request.js";
import type { McpServerErrorCode } from "./mcp-server-error-code.js";
import { connectGuarded } from "./connect-guarded.js";

export interface McpHttpOptions {
  /** The address to bind; default `127.0.0.1` (only this machine can connect). */
  host?: string;
  /** The port; default 3333. 0 picks a free one (see `url`). */
  port?: number;
  /** The MCP endpoint's path; default `/mcp`. */
  path?: string;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** Host header values accepted besides the bound address (`kb.internal:3333`, behind a proxy). */
  allowedHosts?: readonly string[];
  /** Origin values accepted besides the bound address's (`https://app.example.com`). */
  allowedOrigins?: readonly string[];
  /** The largest request body, in bytes; default 1 MiB. A larger one is answered 413. */
  maxBodyBytes?: number;
  /** How long `close` waits for requests in flight before it cuts them, in ms; default 5000. */
  shutdownGraceMs?: number;
  /** Told of a request that failed inside the transport; default `console.error` (stderr). */
  onError?: (error: unknown) => void;
}

export interface McpHttpServer {
  /** The endpoint's URL: `http://127.0.0.1:3333/mcp`. */
  url: string;
  /** Stops accepting, lets requests in flight finish (up to the grace time), then closes every connection. */
  close(): Promise<void>;
}

/**
 * Serves MCP over Streamable HTTP, stateless: each POST gets a fresh server from
 * `createMcpServer` and a fresh transport, answered as JSON. Before the transport sees a
 * request, the Host and Origin headers are checked (against DNS rebinding), then the bearer
 * token when there is one, then the body size; only POST is served.
 */
export async function serveMcpHttp(createMcpServer: () => Server, options: McpHttpOptions = {}): Promise<McpHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const maxBodyBytes = options.maxBodyBytes ?? 1_048_576;
  const onError = options.onError ?? ((error: unknown) => console.error(`lookup-knowledge mcp: ${errorMessage(error)}`));
  let access = httpAccess({ host, port: options.port ?? 3333, ...accessExtras(options) });
  const inFlight = new Set<Promise<void>>();

  const http = createServer((request, response) => {
    const handled = handle(request, response).catch((error: unknown) => {
      onError(error);
      if (!response.headersSent) refuse(response, { status: 500, message: "Internal server error." });
      else response.destroy();
    });
    inFlight.add(handled);
    handled.finally(() => inFlight.delete(handled));
  });
  http.requestTimeout = 120_000;
  http.headersTimeout = 30_000;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refusal = checkHttpRequest(request, access, path);
    if (refusal !== undefined) {
      request.resume();
      return refuse(response, refusal);
    }
    const body = await readBody(request, maxBodyBytes);
    if ("refusal" in body) return refuse(response, body.refusal);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      return jsonRpcError(response, 400, -32700, "Parse error: the request body is not JSON.");
    }
    // No session id generator: stateless, each request stands alone.
    const server = createMcpServer();
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await connectGuarded(server, transport);
    await transport.handleRequest(request, response, parsed);
  }

  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      reject(
        new LookupKnowledgeError<McpServerErrorCode>({
          code: "mcp_listen_failed",
          message: `Cannot listen on ${host}:${options.port ?? 3333}: ${error.code === "EADDRINUSE" ? "the port is in use" : error.code === "EADDRNOTAVAIL" ? "the address is not on this machine" : error.message}.`,
          cause: error,
        }),
      );
    };
    http.once("error", failed);
    http.listen(options.port ?? 3333, host, () => {
      http.off("error", failed);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  access = httpAccess({ host, port, ...accessExtras(options) });
  const shown = host.includes(":") ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${shown}:${port}${path}`,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeIdleConnections();
        const grace = new Promise<void>((resolve) => setTimeout(resolve, options.shutdownGraceMs ?? 5000).unref());
        await Promise.race([Promise.allSettled([...inFlight]), grace]);
        http.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}

function accessExtras(options: McpHttpOptions) {
  return {
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    ...(options.token ? { token: options.token } : {}),
  };
}

async function readBody(request: IncomingMessage, maxBytes: number): Promise<{ text: string } | { refusal: Refusal }> {
  const tooLarge: Refusal = { status: 413, message: `Payload too large: the request body may hold at most ${maxBytes} bytes.` };
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    request.resume();
    return { refusal: tooLarge };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      request.resume();
      return { refusal: tooLarge };
    }
    chunks.push(chunk as Buffer);
  }
  return { text: Buffer.concat(chunks).toString("utf8") };
}

function refuse(response: ServerResponse, refusal: Refusal): void {
  jsonRpcError(response, refusal.status, -32000, refusal.message, refusal.headers);
  // A refused body is not read to its end: the connection closes once the answer is out.
  const socket = response.socket;
  response.once("finish", () => socket?.destroy());
}

function jsonRpcError(response: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", connection: "close", ...headers });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
