import { hostname, networkInterfaces } from "node:os";
import { ConfigurationError } from "@lookup-knowledge/core";
import { isLoopbackHost } from "./is-loopback-host.js";

/** Where a server listens, and whom it answers to besides the policy's names. */
export interface HostOriginGuardOptions {
  /** The address the server is bound to: `127.0.0.1`, `::1`, `localhost`, `0.0.0.0`, `::`, `192.168.1.20`, a name. */
  host: string;
  /** The port it listens on: the real one, read after `listen` when 0 was asked for. */
  port: number;
  /** Host values accepted besides the policy's, as `host:port` (a name behind a proxy: `kb.internal:3333`). */
  allowedHosts?: readonly string[];
  /** Origins accepted besides the policy's, such as `https://app.example.com` (a trailing `/` is ignored). */
  allowedOrigins?: readonly string[];
  /** This machine's addresses and host name, used for a wildcard bind; default: read from `node:os` when the guard is made. */
  machine?: { addresses: readonly string[]; hostname: string };
}

/** The headers the guard reads (Node's `IncomingHttpHeaders` fits). */
export interface HostOriginHeaders {
  host?: string | undefined;
  origin?: string | undefined;
}

/** The guard's answer: allowed, or which header was refused and its value (`""` for a missing Host). */
export type HostOriginVerdict = { allowed: true } | { allowed: false; header: "host" | "origin"; value: string };

/** One server's Host and Origin check. */
export interface HostOriginGuard {
  check(headers: HostOriginHeaders): HostOriginVerdict;
  /** The Host values accepted, for messages: `localhost:4555`, `127.x.y.z:4555` (any address of 127.0.0.0/8), `[::1]:4555`, ... */
  readonly acceptedHosts: readonly string[];
}

/**
 * The one Host and Origin policy of lookup-knowledge's HTTP servers (the MCP server and the
 * inspector), against DNS rebinding and pages of other sites. A web page on another site can
 * make a browser send requests to this machine, and can make its own DNS name resolve to
 * 127.0.0.1 (rebinding); its requests then carry that name in their Host header and its
 * origin in their Origin header. The trust boundary is this machine: a program running here
 * can call the server directly anyway, so names that always mean this machine are accepted,
 * names a DNS server could answer for are not.
 *
 * - **Host** must be present and name the server with its port (`name:port`; a Host without
 *   a port means port 80, as browsers send it). Case is ignored. The names accepted:
 *   - bound to a loopback address (any of 127.0.0.0/8, `::1`, `localhost`): the loopback
 *     names `localhost`, `[::1]` and every 127.x.y.z address written in four decimal parts.
 *     Other spellings (`127.1`, `localhost.`, `app.localhost`) are refused;
 *   - bound to every address (`0.0.0.0`, `::`): the loopback names, that address, this
 *     machine's interface addresses (read when the guard is made; IPv6 in brackets, without
 *     a zone) and its host name;
 *   - bound to one other address or name (`192.168.1.20`, `kb.lan`): that one only, not the
 *     loopback names (no request to them can reach it);
 *   - and, whatever the bind, the `allowedHosts` given (`host:port`, port included).
 * - **Origin**: a request without one passes (command-line clients, and browsers on
 *   same-origin navigations). One that is sent must be `http://` followed by a Host value
 *   accepted above (a page this server could have served under one of its names), or be one of
 *   `allowedOrigins`. `null` (sandboxed frames, `file:` pages), `https://` origins of the same
 *   names and other ports are refused.
 *
 * The guard says what it refused; each server answers in its own form (the MCP server 403
 * with a JSON-RPC error, the inspector 421 for the Host and 403 for the Origin).
 */
export function createHostOriginGuard(options: HostOriginGuardOptions): HostOriginGuard {
  const bound = bracketed(options.host.toLowerCase());
  const wildcard = bound === "0.0.0.0" || bound === "[::]";
  const loopback = wildcard || isLoopbackHost(bound);
  const names = new Set<string>(isLoopbackHost(bound) ? [] : [bound]);
  if (wildcard) {
    const machine = options.machine ?? readMachine();
    for (const address of machine.addresses) names.add(bracketed((address.split("%")[0] ?? "").toLowerCase()));
    names.add(machine.hostname.toLowerCase());
    for (const name of names) if (isLoopbackHost(name)) names.delete(name);
  }
  const extraHosts = new Set((options.allowedHosts ?? []).map((value) => authorityKey(value, "allowedHosts")));
  const extraOrigins = new Set((options.allowedOrigins ?? []).map((value) => value.toLowerCase().replace(/\/$/, "")));

  const hostAccepted = (value: string): boolean => {
    const authority = parseAuthority(value);
    if (authority === undefined) return false;
    if (extraHosts.has(`${authority.name}:${authority.port}`)) return true;
    return authority.port === options.port && (names.has(authority.name) || (loopback && isLoopbackHost(authority.name)));
  };
  const originAccepted = (value: string): boolean => {
    const origin = value.toLowerCase();
    return extraOrigins.has(origin) || (origin.startsWith("http://") && hostAccepted(origin.slice("http://".length)));
  };

  const loopbackNames = loopback ? ["localhost", "127.x.y.z", "[::1]"] : [];
  return {
    acceptedHosts: [...[...loopbackNames, ...names].map((name) => `${name}:${options.port}`), ...extraHosts],
    check(headers) {
      const host = headers.host ?? "";
      if (!hostAccepted(host)) return { allowed: false, header: "host", value: host };
      if (headers.origin !== undefined && !originAccepted(headers.origin)) {
        return { allowed: false, header: "origin", value: headers.origin };
      }
      return { allowed: true };
    },
  };
}

/** `name:port` (or `name`, port 80) with the name a DNS name, an IPv4 address or a bracketed IPv6 address; lower case. */
function parseAuthority(value: string): { name: string; port: number } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::(\d{1,5}))?$/.exec(value.toLowerCase());
  if (match === null) return undefined;
  const port = match[2] === undefined ? 80 : Number(match[2]);
  return port > 65_535 ? undefined : { name: match[1] as string, port };
}

function authorityKey(value: string, key: string): string {
  const authority = parseAuthority(value);
  if (authority === undefined) throw new ConfigurationError({ key, value, reason: "must be host:port, like kb.internal:3333" });
  return `${authority.name}:${authority.port}`;
}

function bracketed(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function readMachine(): { addresses: string[]; hostname: string } {
  const addresses = Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
  return { addresses, hostname: hostname() };
}
