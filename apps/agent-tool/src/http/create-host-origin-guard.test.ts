import { describe, expect, it } from "vitest";
import { createHostOriginGuard, type HostOriginGuardOptions, type HostOriginHeaders } from "./create-host-origin-guard.js";
import { isLoopbackHost } from "./is-loopback-host.js";

const machine = { addresses: ["127.0.0.1", "::1", "10.0.0.5", "fe80::1%eth0"], hostname: "Build-Box" };
const loopback: HostOriginGuardOptions = { host: "127.0.0.1", port: 4555 };

/** [bound to, headers, "allowed" or the header refused]: the policy, case by case. */
const cases: Array<[HostOriginGuardOptions, HostOriginHeaders, "allowed" | "host" | "origin"]> = [
  // Bound to a loopback address: the loopback names, with the port.
  [loopback, { host: "127.0.0.1:4555" }, "allowed"],
  [loopback, { host: "localhost:4555" }, "allowed"],
  [loopback, { host: "LOCALHOST:4555" }, "allowed"],
  [loopback, { host: "[::1]:4555" }, "allowed"],
  [loopback, { host: "127.0.0.2:4555" }, "allowed"],
  [loopback, { host: "127.255.255.254:4555" }, "allowed"],
  [{ host: "127.0.0.2", port: 4555 }, { host: "localhost:4555" }, "allowed"],
  [{ host: "::1", port: 4555 }, { host: "127.0.0.1:4555" }, "allowed"],
  [{ host: "localhost", port: 4555 }, { host: "[::1]:4555" }, "allowed"],
  [{ host: "127.0.0.1", port: 80 }, { host: "localhost" }, "allowed"],
  [{ host: "127.0.0.1", port: 80 }, { host: "localhost:80" }, "allowed"],
  // ... and nothing else: no Host, another port, other names and spellings.
  [loopback, {}, "host"],
  [loopback, { host: "" }, "host"],
  [loopback, { host: "127.0.0.1:4556" }, "host"],
  [loopback, { host: "localhost" }, "host"],
  [loopback, { host: "localhost:" }, "host"],
  [loopback, { host: "attacker.example:4555" }, "host"],
  [loopback, { host: "localhost.:4555" }, "host"],
  [loopback, { host: "app.localhost:4555" }, "host"],
  [loopback, { host: "127.0.0.1.attacker.example:4555" }, "host"],
  [loopback, { host: "127.0.0.1:4555.attacker.example" }, "host"],
  [loopback, { host: "127.1:4555" }, "host"],
  [loopback, { host: "127.0.0.01:4555" }, "host"],
  [loopback, { host: "127.0.0.256:4555" }, "host"],
  [loopback, { host: "128.0.0.1:4555" }, "host"],
  [loopback, { host: "[::ffff:127.0.0.1]:4555" }, "host"],
  [loopback, { host: "::1:4555" }, "host"],
  [loopback, { host: "user@localhost:4555" }, "host"],
  [loopback, { host: "10.0.0.5:4555" }, "host"],
  [loopback, { host: "localhost:99999" }, "host"],
  // Bound to every address: this machine's addresses and name too, never any other name.
  [{ host: "0.0.0.0", port: 8080, machine }, { host: "10.0.0.5:8080" }, "allowed"],
  [{ host: "0.0.0.0", port: 8080, machine }, { host: "build-box:8080" }, "allowed"],
  [{ host: "0.0.0.0", port: 8080, machine }, { host: "[fe80::1]:8080" }, "allowed"],
  [{ host: "0.0.0.0", port: 8080, machine }, { host: "localhost:8080" }, "allowed"],
  [{ host: "0.0.0.0", port: 8080, machine }, { host: "0.0.0.0:8080" }, "allowed"],
  [{ host: "::", port: 8080, machine }, { host: "127.0.0.3:8080" }, "allowed"],
  [{ host: "::", port: 8080, machine }, { host: "10.0.0.5:8080" }, "allowed"],
  [{ host: "0.0.0.0", port: 8080, machine }, { host: "attacker.example:8080" }, "host"],
  [{ host: "0.0.0.0", port: 8080, machine }, { host: "10.0.0.6:8080" }, "host"],
  [{ host: "0.0.0.0", port: 8080, machine }, { host: "10.0.0.5:8081" }, "host"],
  // Bound to one other address or name: that one only, not the loopback names.
  [{ host: "192.168.1.20", port: 80 }, { host: "192.168.1.20" }, "allowed"],
  [{ host: "192.168.1.20", port: 80 }, { host: "192.168.1.20:80" }, "allowed"],
  [{ host: "192.168.1.20", port: 80 }, { host: "localhost:80" }, "host"],
  [{ host: "192.168.1.20", port: 80 }, { host: "127.0.0.1" }, "host"],
  [{ host: "KB.lan", port: 3333 }, { host: "kb.lan:3333" }, "allowed"],
  [{ host: "fd00::7", port: 3333 }, { host: "[fd00::7]:3333" }, "allowed"],
  // allowedHosts: as given, port included, whatever the bind.
  [{ ...loopback, allowedHosts: ["KB.internal:443"] }, { host: "kb.internal:443" }, "allowed"],
  [{ ...loopback, allowedHosts: ["kb.internal:443"] }, { host: "kb.internal:4555" }, "host"],
  // Origin: none passes; else http:// and an accepted Host value, or an allowed origin.
  [loopback, { host: "127.0.0.1:4555", origin: "http://127.0.0.1:4555" }, "allowed"],
  [loopback, { host: "127.0.0.1:4555", origin: "http://localhost:4555" }, "allowed"],
  [loopback, { host: "localhost:4555", origin: "http://[::1]:4555" }, "allowed"],
  [loopback, { host: "127.0.0.1:4555", origin: "HTTP://LOCALHOST:4555" }, "allowed"],
  [loopback, { host: "127.0.0.1:4555", origin: "http://attacker.example" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "http://attacker.example:4555" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "https://localhost:4555" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "http://localhost:5173" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "http://localhost:4555.attacker.example" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "http://localhost:4555/" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "null" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "" }, "origin"],
  [{ ...loopback, allowedOrigins: ["https://App.example.com/"] }, { host: "127.0.0.1:4555", origin: "https://app.example.com" }, "allowed"],
  [
    { ...loopback, allowedOrigins: ["https://app.example.com"] },
    { host: "127.0.0.1:4555", origin: "https://app.example.com.evil" },
    "origin",
  ],
  [{ ...loopback, allowedHosts: ["kb.internal:4555"] }, { host: "127.0.0.1:4555", origin: "http://kb.internal:4555" }, "allowed"],
  [{ host: "0.0.0.0", port: 8080, machine }, { host: "10.0.0.5:8080", origin: "http://build-box:8080" }, "allowed"],
  // The Host is checked first: a foreign Host is refused as such whatever the Origin.
  [loopback, { host: "attacker.example:4555", origin: "http://attacker.example:4555" }, "host"],
];

describe("createHostOriginGuard: the one Host and Origin policy of the HTTP servers", () => {
  it.each(cases)("issue 34: bound to %o, %o is %s", (options, headers, expected) => {
    const verdict = createHostOriginGuard(options).check(headers);
    expect(verdict.allowed ? "allowed" : verdict.header).toBe(expected);
  });

  it("issue 34: a refusal names the header and the value it was sent with", () => {
    const guard = createHostOriginGuard(loopback);
    expect(guard.check({ origin: "http://localhost:4555" })).toEqual({ allowed: false, header: "host", value: "" });
    expect(guard.check({ host: "127.0.0.1:4555", origin: "null" })).toEqual({ allowed: false, header: "origin", value: "null" });
  });

  it("issue 34: acceptedHosts lists what the guard accepts, for messages", () => {
    expect(createHostOriginGuard(loopback).acceptedHosts).toEqual(["localhost:4555", "127.x.y.z:4555", "[::1]:4555"]);
    expect(createHostOriginGuard({ host: "192.168.1.20", port: 80, allowedHosts: ["kb.internal:8080"] }).acceptedHosts).toEqual([
      "192.168.1.20:80",
      "kb.internal:8080",
    ]);
    expect(createHostOriginGuard({ host: "0.0.0.0", port: 8080, machine }).acceptedHosts).toEqual([
      "localhost:8080",
      "127.x.y.z:8080",
      "[::1]:8080",
      "0.0.0.0:8080",
      "10.0.0.5:8080",
      "[fe80::1]:8080",
      "build-box:8080",
    ]);
  });

  it("issue 34: without a machine given, a wildcard bind reads this machine's addresses", () => {
    expect(createHostOriginGuard({ host: "0.0.0.0", port: 8080 }).acceptedHosts.length).toBeGreaterThan(4);
  });

  it("issue 34: an allowedHosts entry that is not host:port is refused, naming the key", () => {
    expect(() => createHostOriginGuard({ ...loopback, allowedHosts: ["http://kb.internal"] })).toThrow(/allowedHosts.*host:port/);
  });
});

describe("isLoopbackHost", () => {
  it("issue 34: localhost, ::1 and 127.0.0.0/8 are loopback; other spellings and addresses are not", () => {
    for (const host of ["localhost", "LocalHost", "::1", "[::1]", "127.0.0.1", "127.1.2.3", "127.255.255.255"]) {
      expect({ host, loopback: isLoopbackHost(host) }).toEqual({ host, loopback: true });
    }
    for (const host of [
      "0.0.0.0",
      "::",
      "10.0.0.1",
      "127.1",
      "127.0.0.01",
      "127.0.0.256",
      "localhost.",
      "a.localhost",
      "::ffff:127.0.0.1",
    ]) {
      expect({ host, loopback: isLoopbackHost(host) }).toEqual({ host, loopback: false });
    }
  });
});
