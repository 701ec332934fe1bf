import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioLineTransport } from "./stdio-line-transport.js";
import { connectGuarded } from "./connect-guarded.js";

/**
 * Serves MCP on this process's stdin and stdout until the client closes stdin (or `close`).
 * stdout carries only the protocol: `console.log`, `console.info` and `console.debug` are
 * sent to stderr while it runs, so no log line can break a message. A line it cannot read
 * (not JSON, no JSON-RPC message, over 10 MiB) is answered with an error and skipped
 * (`StdioLineTransport`).
 */
export async function serveMcpStdio(server: Server): Promise<{ closed: Promise<void>; close(): Promise<void> }> {
  for (const method of ["log", "info", "debug"] as const) console[method] = console.error.bind(console);
  const transport = new StdioLineTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once("end", () => {
      void server.close();
    });
  });
  await connectGuarded(server, transport);
  return { closed, close: () => server.close() };
}
