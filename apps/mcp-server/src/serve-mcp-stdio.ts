import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

/**
 * Serves MCP on this process's stdin and stdout until the client closes stdin (or `close`).
 * stdout carries only the protocol: `console.log`, `console.info` and `console.debug` are
 * sent to stderr while it runs, so no log line can break a message.
 */
export async function serveMcpStdio(server: Server): Promise<{ closed: Promise<void>; close(): Promise<void> }> {
  for (const method of ["log", "info", "debug"] as const) console[method] = console.error.bind(console);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once("end", () => {
      void server.close();
    });
  });
  await server.connect(transport);
  return { closed, close: () => server.close() };
}
