import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * Connects `server` to `transport` and answers a request whose params have the wrong shape
 * with a short JSON-RPC error of its own (-32602, naming the field and the shape it needs)
 * before the SDK sees it, the SDK's own answer being its schema library's whole error dump
 * under -32603: a `tools/call` whose `name` is not a string or whose `arguments` is not an
 * object (a string, a number, an array, null), a `resources/read` whose `uri` is not a string.
 */
export async function connectGuarded(server: Server, transport: Transport): Promise<void> {
  await server.connect(transport);
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  transport.onmessage = (message: JSONRPCMessage, extra?: unknown) => {
    const refused = refusedRequest(message);
    if (refused === undefined) {
      (deliver as (message: JSONRPCMessage, extra?: unknown) => void)(message, extra);
      return;
    }
    void transport.send(refused).catch(() => undefined);
  };
}

function refusedRequest(message: JSONRPCMessage): JSONRPCMessage | undefined {
  const request = message as { method?: unknown; id?: unknown; params?: unknown };
  if (typeof request.id !== "string" && typeof request.id !== "number") return undefined;
  const params = request.params !== null && typeof request.params === "object" ? (request.params as Record<string, unknown>) : {};
  const problem = paramsProblem(request.method, params);
  if (problem === undefined) return undefined;
  return { jsonrpc: "2.0", id: request.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${problem}` } };
}

/** What is wrong with the params of a request the guard checks, in one sentence; undefined when nothing is. */
function paramsProblem(method: unknown, params: Record<string, unknown>): string | undefined {
  if (method === "tools/call") {
    const { name, arguments: args } = params;
    if (typeof name !== "string") return `tools/call "name" must be the name of a tool, a string; got ${shapeOf(name)}.`;
    if (args === undefined || (args !== null && typeof args === "object" && !Array.isArray(args))) return undefined;
    return `tools/call "arguments" must be an object of named arguments, such as {"query": "..."}; got ${shapeOf(args)}.`;
  }
  if (method === "resources/read" && typeof params.uri !== "string") {
    return `resources/read "uri" must be a knowledge://source/<path> URI, a string; got ${shapeOf(params.uri)}.`;
  }
  return undefined;
}

function shapeOf(value: unknown): string {
  if (value === undefined) return "none";
  return value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
}
