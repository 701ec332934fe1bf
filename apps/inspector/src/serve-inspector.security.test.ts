import { request as httpRequest } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { hostname, networkInterfaces } from "node:os";
import { isLoopbackHost } from "@lookup-knowledge/agent-tool/http";
import { describe, expect, it } from "vitest";
import { InspectorListenError } from "./inspector-listen-error.js";
import { serveInspector } from "./serve-inspector.js";
import { call } from "./test/inspector-http.js";
import { useInspectedBase } from "./test/use-inspected-base.js";

describe("issue 13: the inspector's security checks on the ingested example base", () => {
  const base = useInspectedBase();

  it("issue 13: security: another Host or Origin is refused, POST bodies must be JSON and small, the page carries a CSP and no external URL", async () => {
    const url = new URL("/api/info", base.current.server.url).href;
    const rebinding = await call(url, { headers: { host: "attacker.example:80" } });
    expect([rebinding.status, JSON.parse(rebinding.body).error.code]).toEqual([421, "host_not_allowed"]);
    const localhost = await call(url, { headers: { host: `localhost:${new URL(base.current.server.url).port}` } });
    expect(localhost.status).toBe(200);
    const crossSite = await call(url, { headers: { origin: "http://attacker.example" } });
    expect([crossSite.status, JSON.parse(crossSite.body).error.code]).toEqual([403, "origin_not_allowed"]);
    const lookup = new URL("/api/lookup", base.current.server.url).href;
    const form = await call(lookup, { method: "POST", headers: { "content-type": "text/plain" }, body: '{"query":"refund"}' });
    expect(form.status).toBe(415);
    const huge = await call(lookup, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "x".repeat(3 * 1024 * 1024) }),
    });
    expect([huge.status, JSON.parse(huge.body).error.code]).toEqual([413, "body_too_large"]);
    // Without a Content-Length (chunked), the limit is found while reading, and still answered.
    const chunked = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        lookup,
        { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on("error", reject);
      for (let index = 0; index < 33; index++) request.write("x".repeat(64 * 1024));
      request.end();
    });
    expect(chunked).toBe(413);
    expect((await call(new URL("/api/nothing", base.current.server.url).href)).status).toBe(404);
    const page = await call(base.current.server.url);
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    // The icon is an empty data: URL, so the browser asks for no favicon either.
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? "").filter((asset) => asset !== "data:,");
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/assets\//);
      const file = await call(new URL(asset, base.current.server.url).href);
      expect(file.status).toBe(200);
      // XML namespace names are identifiers, never fetched; any other URL would be a request off this machine.
      const external = [...file.body.matchAll(/https?:\/\/[^\s"'`)]+/g)]
        .map((match) => match[0])
        .filter((found) => !found.startsWith("http://www.w3.org/"));
      expect(external).toEqual([]);
    }
    // Raw paths, sent as written (a URL object would resolve the dots before sending).
    const raw = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const target = new URL(base.current.server.url);
        const sent = httpRequest({ host: target.hostname, port: target.port, path, method: "GET" }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        sent.on("error", reject);
        sent.end();
      });
    for (const path of [
      "/../../package.json",
      "/assets/../../../package.json",
      "/..%2f..%2fpackage.json",
      "/assets/..%2f..%2f..%2fpackage.json",
      "/%2e%2e/%2e%2e/package.json",
    ]) {
      expect({ path, status: await raw(path) }).toEqual({ path, status: 404 });
    }
    expect(await raw("/assets/%E0%A4%A.js")).toBe(400);
  });

  it("issue 34: Host and Origin: the loopback names and any 127.x.y.z as Host, only localhost, 127.0.0.1 and [::1] as Origin", async () => {
    const url = new URL("/api/info", base.current.server.url).href;
    const port = Number(new URL(base.current.server.url).port);
    // [headers, status]: 200 answered, 421 host_not_allowed, 403 origin_not_allowed. The server is bound to 127.0.0.1.
    const cases: Array<[Record<string, string>, number]> = [
      [{ host: `127.0.0.1:${port}` }, 200],
      [{ host: `localhost:${port}` }, 200],
      [{ host: `[::1]:${port}` }, 200],
      [{ host: `127.0.0.2:${port}` }, 200],
      [{ host: `[::1]:${port}`, origin: `http://localhost:${port}` }, 200],
      [{ host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` }, 200],
      [{ host: `127.0.0.2:${port}`, origin: `http://[::1]:${port}` }, 200],
      [{ host: `evil.example:${port}` }, 421],
      [{ host: `evil.example:${port}`, origin: `http://evil.example:${port}` }, 421],
      [{ host: `localhost.:${port}` }, 421],
      [{ host: `app.localhost:${port}` }, 421],
      [{ host: `localhost:${port + 1}` }, 421],
      [{ host: `127.1:${port}` }, 421],
      [{ host: `127.0.0.1:${port}`, origin: `http://127.9.9.9:${port}` }, 403],
      [{ host: `127.0.0.2:${port}`, origin: `http://127.0.0.2:${port}` }, 403],
      [{ host: `127.0.0.1:${port}`, origin: `https://localhost:${port}` }, 403],
      [{ host: `127.0.0.1:${port}`, origin: `https://127.0.0.1:${port}` }, 403],
      [{ host: `127.0.0.1:${port}`, origin: `http://evil.example:${port}` }, 403],
      [{ host: `127.0.0.1:${port}`, origin: `http://localhost.:${port}` }, 403],
      [{ host: `127.0.0.1:${port}`, origin: `http://localhost:${port + 1}` }, 403],
      [{ host: `127.0.0.1:${port}`, origin: "null" }, 403],
    ];
    for (const [headers, status] of cases) {
      const answer = await call(url, { headers });
      expect({ headers, status: answer.status }).toEqual({ headers, status });
      if (status !== 200) {
        expect({ headers, code: JSON.parse(answer.body).error.code }).toEqual({
          headers,
          code: status === 421 ? "host_not_allowed" : "origin_not_allowed",
        });
      }
    }
  });

  it("issue 34: bound to every address, it answers to this machine's addresses, not its host name, and its 421 names neither", async (context) => {
    const external = Object.values(networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .find((entry) => !entry.internal && entry.family === "IPv4");
    if (external === undefined) {
      context.skip("this machine has no non-internal IPv4 address (os.networkInterfaces()) to call a wildcard-bound inspector on");
      return;
    }
    const server = await serveInspector({ knowledgeBase: base.current.knowledgeBase, host: "0.0.0.0", port: 0 });
    try {
      const port = Number(new URL(server.url).port);
      const url = `http://127.0.0.1:${port}/api/info`;
      // The machine's name, looked up by DNS, mDNS or LLMNR: refused (a name "localhost" would be the loopback one).
      const name = isLoopbackHost(hostname()) ? "build-box" : hostname().toLowerCase();
      expect((await call(url, { headers: { host: `${external.address}:${port}` } })).status).toBe(200);
      expect((await call(url, { headers: { host: `localhost:${port}`, origin: `http://${external.address}:${port}` } })).status).toBe(200);
      expect((await call(url, { headers: { host: `127.0.0.1:${port}`, origin: `http://${name}:${port}` } })).status).toBe(403);
      for (const host of [`${name}:${port}`, `evil.example:${port}`]) {
        const refused = await call(url, { headers: { host } });
        expect({ host, status: refused.status }).toEqual({ host, status: 421 });
        const message: string = JSON.parse(refused.body).error.message;
        expect(message).toBe(
          `The Host header ${JSON.stringify(host)} is not this inspector's address (use localhost:${port}, 127.0.0.1:${port} or [::1]:${port}, or the address it was started on).`,
        );
        expect(message).not.toContain(external.address);
      }
    } finally {
      await server.close();
    }
  });

  it("issue 13: a port in use is refused with InspectorListenError (inspector_listen_failed) naming host and port, and what to do", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const refused = await serveInspector({
        knowledgeBase: base.current.knowledgeBase,
        port,
      }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(InspectorListenError);
      expect(refused).toMatchObject({ code: "inspector_listen_failed", host: "127.0.0.1", port, reason: "EADDRINUSE" });
      expect((refused as Error).message).toBe(
        `Cannot serve the inspector on 127.0.0.1:${port}: port ${port} is already in use by another program. Choose another port (0 picks a free one), or stop the program that holds it.`,
      );
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });

  it("issue 13: an address that is not this machine's is refused with inspector_listen_failed too", async () => {
    const refused = await serveInspector({ knowledgeBase: base.current.knowledgeBase, host: "192.0.2.1", port: 0 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: "inspector_listen_failed", host: "192.0.2.1", reason: "EADDRNOTAVAIL" });
    expect((refused as Error).message).toContain("Cannot serve the inspector on 192.0.2.1:0: the address is not one of this machine's");
  });
});
