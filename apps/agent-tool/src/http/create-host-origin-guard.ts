import { networkInterfaces } from "node:os";
import { ConfigurationError } from "@lookup-knowledge/core";
import { isLoopbackHost } from "./is-loopback-host.js";

/** Where a server listens, and whom it answers to besides the policy's names. */
export interface HostOriginGuardOptions {
  /** The address the server is bound to: `127.0.0.1`, `::1`, `localhost`, `0.0.0.0`, `::`, `192.168.1.20`, a name. */
  host: string;
  /** The port it listens on: the real one, read after `listen` when 0 was asked for. */
  port: number;
  /**
   * Host values accepted besides the policy's, as `host:port` (a name behind a proxy:
   * `kb.internal:3333`; this machine's host name, which the policy never accepts by itself).
   * An Origin of `http://` and one of them is accepted too.
   */
  allowedHosts?: readonly string[];
  /** Origins accepted besides the policy's, such as `https://app.example.com` (a trailing `/` is ignored). */
  allowedOrigins?: readonly string[];
  /** This machine's interface addresses, used for a wildcard bind; default: read from `node:os` when the guard is made. */
  interfaceAddresses?: readonly string[];
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
  /**
   * What a refusal message may name: `localhost:4555`, `127.0.0.1:4555` and `[::1]:4555` when
   * the server answers to the loopback names (bound to a loopback address or to every address),
   * none when it is bound to one other address. Never the bound address, this machine's
   * interface addresses or names, nor `allowedHosts`: a message goes to any client, which
   * would learn them from a wrong Host.
   */
  readonly loopbackHosts: readonly string[];
}

/**
 * The one Host and Origin policy of lookup-knowledge's HTTP servers (the MCP server and the
 * inspector), against DNS rebinding and pages of other sites. A web page on another site can
 * make a browser send requests to this machine, and can make its own DNS name resolve to
 * 127.0.0.1 (rebinding); its requests then carry that name in their Host header and its
 * origin in their Origin header. So the policy accepts, by itself, no name that DNS (or mDNS,
 * LLMNR) answers for: only `localhost` and IP address literals, which no DNS answer can
 * rebind. Any other name is accepted only when the operator gives it: the name the server is
 * bound to, or `allowedHosts`. This machine's host name is such a name.
 *
 * - **Host** must be present and name the server with its port (`name:port`; a Host without
 *   a port means port 80, as browsers send it). Case is ignored. The names accepted:
 *   - bound to a loopback address (any of 127.0.0.0/8, `::1`, `localhost`): `localhost`,
 *     `[::1]` and every 127.x.y.z address written in four decimal parts (an address literal
 *     cannot be rebound, and each reaches this machine). Other spellings (`127.1`,
 *     `localhost.`, `app.localhost`) are refused;
 *   - bound to every address (`0.0.0.0`, `::`): the same loopback names, that address
 *     (`0.0.0.0`, `[::]`) and this machine's interface addresses (read when the guard is
 *     made; IPv6 in brackets, without a zone). Not the host name: put it in `allowedHosts`;
 *   - bound to one other address or name (`192.168.1.20`, `kb.lan`): that one only, not the
 *     loopback names (no request to them can reach it);
 *   - and, whatever the bind, the `allowedHosts` given (`host:port`, port included).
 * - **Origin**: a request without one passes (command-line clients, and browsers on
 *   same-origin navigations). One that is sent must be `http://` followed by, with the
 *   server's port (none for port 80):
 *   - `localhost`, `127.0.0.1` or `[::1]` when bound to a loopback address or to every address;
 *   - the bound address or name (`127.0.0.2`, `0.0.0.0`, `192.168.1.20`, `kb.lan`), and on a
 *     wildcard bind each interface address, the addresses it is bound to;
 *   or be `http://` and an `allowedHosts` entry, or one of `allowedOrigins`. Other 127.x.y.z
 *   addresses are refused as origins, though accepted as Hosts: another server on this
 *   machine can listen on `127.9.9.9` with the same port, and its pages must not call this one.
 *   `null` (sandboxed frames, `file:` pages), `https://` origins of the same names, other ports
 *   and other sites are refused.
 *
 * The guard says what it refused; each server answers in its own form (the MCP server 403
 * with a JSON-RPC error, the inspector 421 for the Host and 403 for the Origin), naming at
 * most `loopbackHosts`.
 */
export function createHostOriginGuard(options: HostOriginGuardOptions): HostOriginGuard {
  const bound = bracketed(options.host.toLowerCase());
  const wildcard = bound === "0.0.0.0" || bound === "[::]";
  const loopback = wildcard || isLoopbackHost(bound);
  // The addresses the server is bound to, besides the loopback names: Hosts and Origins.
  const boundNames = new Set<string>([bound]);
  if (wildcard) {
    for (const address of options.interfaceAddresses ?? readInterfaceAddresses()) {
      boundNames.add(bracketed((address.split("%")[0] ?? "").toLowerCase()));
    }
  }
  const loopbackNames = loopback ? ["localhost", "127.0.0.1", "[::1]"] : [];
  const originNames = new Set([...loopbackNames, ...boundNames]);
  const extraHosts = new Set((options.allowedHosts ?? []).map((value) => authorityKey(value, "allowedHosts")));
  const extraOrigins = new Set((options.allowedOrigins ?? []).map((value) => value.toLowerCase().replace(/\/$/, "")));

  const hostAccepted = (value: string): boolean => {
    const authority = parseAuthority(value);
    if (authority === undefined) return false;
    if (extraHosts.has(`${authority.name}:${authority.port}`)) return true;
    return authority.port === options.port && (boundNames.has(authority.name) || (loopback && isLoopbackHost(authority.name)));
  };
  const originAccepted = (value: string): boolean => {
    const origin = value.toLowerCase();
    if (extraOrigins.has(origin)) return true;
    const authority = origin.startsWith("http://") ? parseAuthority(origin.slice("http://".length)) : undefined;
    if (authority === undefined) return false;
    if (extraHosts.has(`${authority.name}:${authority.port}`)) return true;
    return authority.port === options.port && originNames.has(authority.name);
  };

  return {
    loopbackHosts: loopbackNames.map((name) => `${name}:${options.port}`),
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

function readInterfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
}
