import type { IncomingMessage } from "node:http";
import { InspectorRequestError } from "./inspector-request-error.js";

/**
 * The `host:port` values a request may name in its Host header: the bound address, and the
 * loopback names when it is a loopback address. Anything else is a page of another site
 * reaching this server through a DNS name it controls (DNS rebinding), and is refused.
 */
export function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set([host.includes(":") ? `[${host}]` : host]);
  if (host === "127.0.0.1" || host === "::1" || host === "localhost") {
    for (const name of ["127.0.0.1", "localhost", "[::1]"]) names.add(name);
  }
  return new Set([...names].map((name) => `${name}:${port}`.toLowerCase()));
}

/**
 * Throws `host_not_allowed` when the Host header is missing or not an allowed one, and
 * `origin_not_allowed` when a browser says the request comes from a page of another origin.
 */
export function checkRequestOrigin(request: IncomingMessage, hosts: ReadonlySet<string>): void {
  const host = request.headers.host?.toLowerCase();
  if (host === undefined || !hosts.has(host)) {
    throw new InspectorRequestError({
      status: 421,
      code: "host_not_allowed",
      message: `The Host header ${JSON.stringify(request.headers.host ?? "")} is not this inspector's address (expected one of ${[...hosts].join(", ")}).`,
    });
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) {
    throw new InspectorRequestError({
      status: 403,
      code: "origin_not_allowed",
      message: `Requests from pages of ${JSON.stringify(origin)} are refused: only the inspector's own page may call its API.`,
    });
  }
}
