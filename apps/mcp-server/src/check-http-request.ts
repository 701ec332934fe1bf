import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { hostname, networkInterfaces } from "node:os";

/** Who may call the HTTP server: the Host and Origin values it accepts, and its bearer token. */
export interface HttpAccess {
  /** Host header values accepted (`127.0.0.1:3333`), lower case. */
  hosts: ReadonlySet<string>;
  /** Origin header values accepted (`http://localhost:3333`), lower case; a request without Origin is accepted. */
  origins: ReadonlySet<string>;
  token?: string;
}

/** A refused request: its HTTP status and one sentence. */
export interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

const loopbackNames = ["127.0.0.1", "localhost", "[::1]"];

/**
 * The Host and Origin values a server bound to `host:port` accepts (against DNS rebinding):
 * on a loopback address, the loopback names with the port; on another address, that address
 * with the port; on every address (`0.0.0.0`, `::`), the loopback names, this machine's
 * interface addresses and its host name; plus the ones given. A web page on another site
 * cannot reach the server through a name of its own that resolves here: its requests carry
 * that name, and an address literal is no rebinding.
 */
export function httpAccess(options: {
  host: string;
  port: number;
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  token?: string;
}): HttpAccess {
  const names = isLoopback(options.host)
    ? [...loopbackNames, bracketed(options.host)]
    : isUnspecified(options.host)
      ? [...loopbackNames, bracketed(options.host), ...interfaceAddresses(), hostname()]
      : [bracketed(options.host)];
  const hosts = new Set(names.map((name) => `${name}:${options.port}`.toLowerCase()));
  for (const host of options.allowedHosts ?? []) hosts.add(host.toLowerCase());
  const origins = new Set([...hosts].map((host) => `http://${host}`));
  for (const origin of options.allowedOrigins ?? []) origins.add(origin.toLowerCase().replace(/\/$/, ""));
  return { hosts, origins, ...(options.token ? { token: options.token } : {}) };
}

function bracketed(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function isUnspecified(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "[::]";
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((entries) =>
    (entries ?? []).map((entry) => bracketed(entry.address.split("%")[0] as string)),
  );
}

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Why `request` is refused before it reaches the MCP transport, or undefined when it may pass. */
export function checkHttpRequest(request: IncomingMessage, access: HttpAccess, path: string): Refusal | undefined {
  const host = (request.headers.host ?? "").toLowerCase();
  if (!access.hosts.has(host)) {
    return { status: 403, message: "Forbidden: this server does not answer to that Host name (DNS rebinding protection)." };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !access.origins.has(origin.toLowerCase())) {
    return { status: 403, message: "Forbidden: requests from that Origin are not accepted." };
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
