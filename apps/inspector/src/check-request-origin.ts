import type { IncomingMessage } from "node:http";
import { networkInterfaces } from "node:os";
import { InspectorRequestError } from "./inspector-request-error.js";

/**
 * The `host:port` values a request may name in its Host header: the bound address, the
 * loopback names when it is a loopback address, and this machine's addresses when it is a
 * wildcard (`0.0.0.0`, `::`). Anything else is a page of another site reaching this server
 * through a DNS name it controls (DNS rebinding), and is refused.
 */
export function allowedHosts(host: string, port: number, interfaces = networkInterfaces()): Set<string> {
  const bracket = (address: string) => (address.includes(":") ? `[${address}]` : address);
  const names = new Set([bracket(host)]);
  const wildcard = host === "0.0.0.0" || host === "::";
  if (wildcard || host === "127.0.0.1" || host === "::1" || host === "localhost") {
    for (const name of ["127.0.0.1", "localhost", "[::1]"]) names.add(name);
  }
  if (wildcard) {
    for (const addresses of Object.values(interfaces)) for (const address of addresses ?? []) names.add(bracket(address.address));
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
