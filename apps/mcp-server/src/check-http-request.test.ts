import type { IncomingMessage } from "node:http";
import { hostname, networkInterfaces } from "node:os";
import { isLoopbackHost } from "@lookup-knowledge/agent-tool/http";
import { describe, expect, it } from "vitest";
import { checkHttpRequest, httpAccess } from "./check-http-request.js";
import { readMcpServerSettings } from "./mcp-server-settings.js";

const request = (headers: Record<string, string>, method = "POST", url = "/mcp") =>
  ({ headers, method, url }) as unknown as IncomingMessage;

describe("checkHttpRequest (DNS rebinding protection, token, method)", () => {
  it("issue 12: a loopback server answers to the loopback names with its port only, in any case", () => {
    const access = httpAccess({ host: "127.0.0.1", port: 3333 });
    for (const host of ["127.0.0.1:3333", "localhost:3333", "LOCALHOST:3333", "[::1]:3333"]) {
      expect(checkHttpRequest(request({ host }), access, "/mcp")).toBeUndefined();
    }
    for (const host of ["attacker.example:3333", "localhost:80", "localhost", "localhost.:3333", "127.0.0.1:3333.evil", ""]) {
      expect(checkHttpRequest(request({ host }), access, "/mcp")?.status).toBe(403);
    }
    expect(checkHttpRequest(request({}), access, "/mcp")?.status).toBe(403);
  });

  it("issue 12: an Origin must be the server's own (or one allowed); no Origin passes", () => {
    const access = httpAccess({ host: "127.0.0.1", port: 3333, allowedOrigins: ["https://app.example.com/"] });
    const host = "127.0.0.1:3333";
    expect(checkHttpRequest(request({ host, origin: "http://localhost:3333" }), access, "/mcp")).toBeUndefined();
    expect(checkHttpRequest(request({ host, origin: "https://app.example.com" }), access, "/mcp")).toBeUndefined();
    expect(checkHttpRequest(request({ host, origin: "https://localhost:3333.attacker.example" }), access, "/mcp")?.status).toBe(403);
    expect(checkHttpRequest(request({ host, origin: "null" }), access, "/mcp")?.status).toBe(403);
  });

  it("issue 12: bound to every address, it answers to this machine's addresses; its host name only through allowedHosts", (context) => {
    const external = Object.values(networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .find((entry) => !entry.internal && entry.family === "IPv4");
    if (external === undefined) {
      context.skip("this machine has no non-internal IPv4 address (os.networkInterfaces()) to look for");
      return;
    }
    // The machine's name is looked up by DNS, mDNS or LLMNR, so a rebinding page can use it.
    const name = isLoopbackHost(hostname()) ? "build-box" : hostname().toLowerCase();
    const access = httpAccess({ host: "0.0.0.0", port: 8080, allowedHosts: ["kb.internal:8080"] });
    for (const host of [`${external.address}:8080`, "localhost:8080", "kb.internal:8080"]) {
      expect(checkHttpRequest(request({ host }), access, "/mcp")).toBeUndefined();
    }
    for (const host of [`${name}:8080`, "attacker.example:8080"]) {
      expect({ host, status: checkHttpRequest(request({ host }), access, "/mcp")?.status }).toEqual({ host, status: 403 });
    }
    const named = httpAccess({ host: "0.0.0.0", port: 8080, allowedHosts: [`${name}:8080`] });
    expect(checkHttpRequest(request({ host: `${name}:8080`, origin: `http://${name}:8080` }), named, "/mcp")).toBeUndefined();
  });

  it("issue 12: a token is checked as a bearer, and only POST reaches the transport", () => {
    const access = httpAccess({ host: "127.0.0.1", port: 1, token: "0123456789abcdef" });
    const host = "127.0.0.1:1";
    expect(checkHttpRequest(request({ host }), access, "/mcp")).toMatchObject({ status: 401, headers: { "www-authenticate": "Bearer" } });
    expect(checkHttpRequest(request({ host, authorization: "Bearer 0123456789abcdeX" }), access, "/mcp")?.status).toBe(401);
    expect(checkHttpRequest(request({ host, authorization: "Basic 0123456789abcdef" }), access, "/mcp")?.status).toBe(401);
    expect(checkHttpRequest(request({ host, authorization: "bearer 0123456789abcdef" }), access, "/mcp")).toBeUndefined();
    expect(checkHttpRequest(request({ host, authorization: "Bearer 0123456789abcdef" }, "GET"), access, "/mcp")?.status).toBe(405);
    expect(
      checkHttpRequest(request({ host, authorization: "Bearer 0123456789abcdef" }, "POST", "/mcp?x=1"), access, "/mcp"),
    ).toBeUndefined();
    expect(checkHttpRequest(request({ host, authorization: "Bearer 0123456789abcdef" }, "POST", "/other"), access, "/mcp")?.status).toBe(
      404,
    );
  });
});

describe("readMcpServerSettings", () => {
  it("issue 12: defaults, and each bad key refused with its name", () => {
    expect(readMcpServerSettings()).toEqual({
      callerFilter: false,
      maxQueryChars: 8000,
      resourcesPerPage: 500,
      toolName: "lookup_knowledge",
    });
    expect(readMcpServerSettings({ http: { allowedHosts: ["kb.internal:3333"] } }).http).toEqual({ allowedHosts: ["kb.internal:3333"] });
    expect(() => readMcpServerSettings({ callerFilters: true })).toThrow(/mcp/);
    expect(() => readMcpServerSettings({ toolName: "look up" })).toThrow(/mcp\.toolName.*letters, digits/);
    expect(() => readMcpServerSettings({ maxQueryChars: 3 })).toThrow(/mcp\.maxQueryChars/);
    expect(() => readMcpServerSettings({ maxQueryChars: 70_000 })).toThrow(/mcp\.maxQueryChars/);
    expect(() => readMcpServerSettings({ http: { allowedHosts: ["kb.internal"] } })).toThrow(/mcp\.http\.allowedHosts\.0.*host:port/);
    expect(() => readMcpServerSettings({ filter: { tenant: { $like: "a" } } })).toThrow(/Invalid metadata filter at tenant/);
  });
});
