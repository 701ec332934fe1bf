import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { allowedHosts, checkRequestOrigin } from "./check-request-origin.js";

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe("issue 13: the inspector's Host and Origin check", () => {
  it("issue 13: a loopback bind allows the loopback names only; a named address only itself", () => {
    expect([...allowedHosts("127.0.0.1", 4555)].sort()).toEqual(["127.0.0.1:4555", "[::1]:4555", "localhost:4555"]);
    expect([...allowedHosts("192.168.1.20", 80)]).toEqual(["192.168.1.20:80"]);
  });

  it("issue 13: a wildcard bind allows this machine's addresses, not any name", () => {
    const hosts = allowedHosts("0.0.0.0", 4555, {
      eth0: [{ address: "10.0.0.5", family: "IPv4", netmask: "255.0.0.0", mac: "00:00:00:00:00:00", internal: false, cidr: "10.0.0.5/8" }],
    });
    expect(hosts.has("10.0.0.5:4555")).toBe(true);
    expect(hosts.has("localhost:4555")).toBe(true);
    expect(() => checkRequestOrigin(request({ host: "attacker.example:4555" }), hosts)).toThrow(/not this inspector's address/);
  });

  it("issue 13: no Host, another port, or a page of another origin is refused", () => {
    const hosts = allowedHosts("127.0.0.1", 4555);
    expect(() => checkRequestOrigin(request({}), hosts)).toThrow(/Host header ""/);
    expect(() => checkRequestOrigin(request({ host: "127.0.0.1:4556" }), hosts)).toThrow(/not this inspector's address/);
    expect(() => checkRequestOrigin(request({ host: "127.0.0.1:4555", origin: "http://localhost:4555" }), hosts)).toThrow(/are refused/);
    expect(() => checkRequestOrigin(request({ host: "127.0.0.1:4555", origin: "http://127.0.0.1:4555" }), hosts)).not.toThrow();
  });
});
