import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { createHostOriginGuard, type HostOriginGuard } from "@lookup-knowledge/agent-tool/http";

/** Who may call the HTTP server: the Host and Origin guard, and its bearer token. */
export interface HttpAccess {
  /** The Host and Origin policy shared with the inspector (`@lookup-knowledge/agent-tool/http`). */
  guard: HostOriginGuard;
  token?: string;
}

/** A refused request: its HTTP status and one sentence. */
export interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/**
 * Who may call a server bound to `host:port`: the Host and Origin values of the policy every
 * lookup-knowledge HTTP server applies (`createHostOriginGuard`, against DNS rebinding), plus
 * the ones given, and the token when there is one.
 */
export function httpAccess(options: {
  host: string;
  port: number;
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  token?: string;
}): HttpAccess {
  const { token, ...bound } = options;
  return { guard: createHostOriginGuard(bound), ...(token ? { token } : {}) };
}

/** Why `request` is refused before it reaches the MCP transport, or undefined when it may pass. */
export function checkHttpRequest(request: IncomingMessage, access: HttpAccess, path: string): Refusal | undefined {
  const verdict = access.guard.check(request.headers);
  if (!verdict.allowed) {
    return verdict.header === "host"
      ? { status: 403, message: "Forbidden: this server does not answer to that Host name (DNS rebinding protection)." }
      : { status: 403, message: "Forbidden: requests from that Origin are not accepted." };
  }
  const url = new URL(request.url ?? "/", "http://server");
  if (url.pathname !== path) return { status: 404, message: `Not found: the MCP endpoint is ${path}.` };
  if (access.token !== undefined && !bearerMatches(request.headers.authorization, access.token)) {
    return {
      status: 401,
      message: "Unauthorized: send the server's token as Authorization: Bearer <token>.",
      headers: { "www-authenticate": "Bearer" },
    };
  }
  if (request.method !== "POST") {
    return { status: 405, message: "Method not allowed: this stateless server takes JSON-RPC over POST only.", headers: { allow: "POST" } };
  }
  return undefined;
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (match === null) return false;
  // Digests of equal length: the comparison tells nothing of the token's length or content.
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest((match[1] as string).trim()), digest(token));
}
