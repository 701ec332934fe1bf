import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * Connects `server` to `transport` and answers a `tools/call` whose `arguments` is not an
 * object (a string, a number, an array, null) with a short JSON-RPC error of its own (-32602,
 * naming the field and the shape it needs) before the SDK sees it: the SDK's own answer is
 * its schema library's whole error dump.
 */
export async function connectGuarded(server: Server, transport: Transport): Promise<void> {
  await server.connect(transport);
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  transport.onmessage = (message: JSONRPCMessage, extra?: unknown) => {
    const refused = refusedToolCall(message);
    if (refused === undefined) {
      (deliver as (message: JSONRPCMessage, extra?: unknown) => void)(message, extra);
      return;
    }
    void transport.send(refused).catch(() => undefined);
  };
}

function refusedToolCall(message: JSONRPCMessage): JSONRPCMessage | undefined {
  const request = message as { method?: unknown; id?: unknown; params?: unknown };
  if (request.method !== "tools/call" || (typeof request.id !== "string" && typeof request.id !== "number")) return undefined;
  const params = request.params;
  const args = params !== null && typeof params === "object" ? (params as { arguments?: unknown }).arguments : undefined;
  if (args === undefined || (args !== null && typeof args === "object" && !Array.isArray(args))) return undefined;
  const shape = args === null ? "null" : Array.isArray(args) ? "an array" : `a ${typeof args}`;
  return {
    jsonrpc: "2.0",
    id: request.id,
    error: {
      code: ErrorCode.InvalidParams,
      message: `Invalid params: tools/call "arguments" must be an object of named arguments, such as {"query": "..."}; got ${shape}.`,
    },
  };
}
