/**
 * A JSON-RPC error for a request handler to throw: the SDK answers with its `code` and its
 * `message` as they are. (The SDK's `McpError` puts `MCP error <code>: ` before its message,
 * and the client's `McpError` puts it there again: "MCP error -32602: MCP error -32602: ...".)
 */
export function protocolError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}
