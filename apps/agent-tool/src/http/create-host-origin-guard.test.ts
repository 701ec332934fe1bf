import { hostname, networkInterfaces } from "node:os";
import { describe, expect, it } from "vitest";
import { createHostOriginGuard, type HostOriginGuardOptions, type HostOriginHeaders } from "./create-host-origin-guard.js";
import { isLoopbackHost } from "./is-loopback-host.js";

const interfaceAddresses = ["127.0.0.1", "::1", "10.0.0.5", "fe80::1%eth0"];
const loopback: HostOriginGuardOptions = { host: "127.0.0.1", port: 4555 };
const wildcard: HostOriginGuardOptions = { host: "0.0.0.0", port: 8080, interfaceAddresses };

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
  // Bound to every address: this machine's interface addresses too, never a name (its host name included).
  [wildcard, { host: "10.0.0.5:8080" }, "allowed"],
  [wildcard, { host: "[fe80::1]:8080" }, "allowed"],
  [wildcard, { host: "localhost:8080" }, "allowed"],
  [wildcard, { host: "0.0.0.0:8080" }, "allowed"],
  [{ ...wildcard, host: "::" }, { host: "127.0.0.3:8080" }, "allowed"],
  [{ ...wildcard, host: "::" }, { host: "10.0.0.5:8080" }, "allowed"],
  [{ ...wildcard, host: "::" }, { host: "[::]:8080" }, "allowed"],
  [wildcard, { host: "build-box:8080" }, "host"],
  [wildcard, { host: "build-box.local:8080" }, "host"],
  [wildcard, { host: "attacker.example:8080" }, "host"],
  [wildcard, { host: "10.0.0.6:8080" }, "host"],
  [wildcard, { host: "10.0.0.5:8081" }, "host"],
  [{ ...wildcard, interfaceAddresses: [] }, { host: "10.0.0.5:8080" }, "host"],
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
  [{ ...wildcard, allowedHosts: ["Build-Box:8080"] }, { host: "build-box:8080" }, "allowed"],
  // Origin: none passes; else http:// and, with the port, localhost, 127.0.0.1, [::1] (loopback
  // and wildcard binds) or the bound address (a wildcard's: its interface addresses), an
  // allowedHosts entry, or an allowed origin. Not any other 127.x.y.z: another server may hold it.
  [loopback, { host: "127.0.0.1:4555", origin: "http://127.0.0.1:4555" }, "allowed"],
  [loopback, { host: "127.0.0.1:4555", origin: "http://localhost:4555" }, "allowed"],
  [loopback, { host: "localhost:4555", origin: "http://[::1]:4555" }, "allowed"],
  [loopback, { host: "127.0.0.1:4555", origin: "HTTP://LOCALHOST:4555" }, "allowed"],
  [loopback, { host: "127.0.0.2:4555", origin: "http://127.0.0.1:4555" }, "allowed"],
  [loopback, { host: "127.0.0.1:4555", origin: "http://127.9.9.9:4555" }, "origin"],
  [loopback, { host: "127.0.0.2:4555", origin: "http://127.0.0.2:4555" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "http://attacker.example" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "http://attacker.example:4555" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "https://localhost:4555" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "http://localhost:5173" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "http://localhost.:4555" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "http://localhost:4555.attacker.example" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "http://localhost:4555/" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "http://user@localhost:4555" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "null" }, "origin"],
  [loopback, { host: "127.0.0.1:4555", origin: "" }, "origin"],
  [{ host: "127.0.0.2", port: 4555 }, { host: "127.0.0.2:4555", origin: "http://127.0.0.2:4555" }, "allowed"],
  [{ host: "127.0.0.2", port: 4555 }, { host: "127.0.0.2:4555", origin: "http://127.0.0.1:4555" }, "allowed"],
  [{ host: "127.0.0.2", port: 4555 }, { host: "127.0.0.2:4555", origin: "http://127.0.0.3:4555" }, "origin"],
  [{ host: "127.0.0.1", port: 80 }, { host: "localhost", origin: "http://localhost" }, "allowed"],
  [{ host: "192.168.1.20", port: 80 }, { host: "192.168.1.20", origin: "http://192.168.1.20" }, "allowed"],
  [{ host: "192.168.1.20", port: 80 }, { host: "192.168.1.20", origin: "http://localhost" }, "origin"],
  [{ host: "KB.lan", port: 3333 }, { host: "kb.lan:3333", origin: "http://kb.lan:3333" }, "allowed"],
  [wildcard, { host: "10.0.0.5:8080", origin: "http://10.0.0.5:8080" }, "allowed"],
  [wildcard, { host: "10.0.0.5:8080", origin: "http://[fe80::1]:8080" }, "allowed"],
  [wildcard, { host: "localhost:8080", origin: "http://0.0.0.0:8080" }, "allowed"],
  [wildcard, { host: "localhost:8080", origin: "http://127.0.0.1:8080" }, "allowed"],
  [wildcard, { host: "127.0.0.3:8080", origin: "http://127.0.0.3:8080" }, "origin"],
  [wildcard, { host: "10.0.0.5:8080", origin: "http://build-box:8080" }, "origin"],
  [wildcard, { host: "10.0.0.5:8080", origin: "http://10.0.0.6:8080" }, "origin"],
  [{ ...wildcard, allowedHosts: ["build-box:8080"] }, { host: "build-box:8080", origin: "http://build-box:8080" }, "allowed"],
  [{ ...loopback, allowedOrigins: ["https://App.example.com/"] }, { host: "127.0.0.1:4555", origin: "https://app.example.com" }, "allowed"],
  [
    { ...loopback, allowedOrigins: ["https://app.example.com"] },
    { host: "127.0.0.1:4555", origin: "https://app.example.com.evil" },
    "origin",
  ],
  [{ ...loopback, allowedHosts: ["kb.internal:4555"] }, { host: "127.0.0.1:4555", origin: "http://kb.internal:4555" }, "allowed"],
  [{ ...loopback, allowedHosts: ["kb.internal:4555"] }, { host: "127.0.0.1:4555", origin: "https://kb.internal:4555" }, "origin"],
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

  it("issue 34: loopbackHosts, all a refusal message may name, are the three loopback names, never an address or name of this machine", () => {
    expect(createHostOriginGuard(loopback).loopbackHosts).toEqual(["localhost:4555", "127.0.0.1:4555", "[::1]:4555"]);
    expect(createHostOriginGuard({ host: "127.0.0.2", port: 4555 }).loopbackHosts).toEqual([
      "localhost:4555",
      "127.0.0.1:4555",
      "[::1]:4555",
    ]);
    expect(createHostOriginGuard({ ...wildcard, allowedHosts: ["build-box:8080"] }).loopbackHosts).toEqual([
      "localhost:8080",
      "127.0.0.1:8080",
      "[::1]:8080",
    ]);
    expect(createHostOriginGuard({ host: "192.168.1.20", port: 80, allowedHosts: ["kb.internal:8080"] }).loopbackHosts).toEqual([]);
  });

  it("issue 34: without interfaceAddresses given, a wildcard bind reads this machine's addresses, and never takes its host name", (context) => {
    const external = Object.values(networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .find((entry) => !entry.internal);
    if (external === undefined) {
      context.skip("this machine has no non-internal network interface address (os.networkInterfaces()), so none can be looked for");
      return;
    }
    const name = external.family === "IPv6" ? `[${external.address.split("%")[0]}]` : external.address;
    const guard = createHostOriginGuard({ host: "0.0.0.0", port: 8080 });
    expect(guard.check({ host: `${name}:8080`, origin: `http://${name}:8080` })).toEqual({ allowed: true });
    // The same address, not read from this machine, is refused: the one above was read.
    expect(createHostOriginGuard({ host: "0.0.0.0", port: 8080, interfaceAddresses: [] }).check({ host: `${name}:8080` }).allowed).toBe(
      false,
    );
    const machineName = hostname().toLowerCase();
    // A host name is looked up by DNS, mDNS or LLMNR: accepted only when given in allowedHosts.
    if (!isLoopbackHost(machineName) && /^[a-z0-9._-]*[a-z_-][a-z0-9._-]*$/.test(machineName)) {
      expect(guard.check({ host: `${machineName}:8080` })).toEqual({ allowed: false, header: "host", value: `${machineName}:8080` });
      const named = createHostOriginGuard({ host: "0.0.0.0", port: 8080, allowedHosts: [`${machineName}:8080`] });
      expect(named.check({ host: `${machineName}:8080` })).toEqual({ allowed: true });
    }
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
