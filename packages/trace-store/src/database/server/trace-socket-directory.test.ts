import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkSocketFile, ensurePrivateSocketDirectory, socketFileName, traceSocketDirectory } from "./trace-socket-directory.js";

// Issue 33: the embedded trace database is reached over a Unix socket under a shared temp
// folder; nobody else may stand in for its server, and the socket path must stay short.
describe.skipIf(process.platform === "win32")("the trace server's socket folder", () => {
  const saved = { TMPDIR: process.env["TMPDIR"], XDG_RUNTIME_DIR: process.env["XDG_RUNTIME_DIR"] };
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), "trace-socket-"));
    process.env["TMPDIR"] = base;
    delete process.env["XDG_RUNTIME_DIR"];
  });
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(base, { recursive: true, force: true });
  });

  it("issue 33: is a folder of this user's, named by the database folder, made private (0700) with its parent", () => {
    const folder = traceSocketDirectory("/data/one/traces/database");
    expect(folder.startsWith(join(base, `lookup-knowledge-${process.getuid?.()}`))).toBe(true);
    expect(traceSocketDirectory("/data/one/traces/database")).toBe(folder);
    expect(traceSocketDirectory("/data/two/traces/database")).not.toBe(folder);
    ensurePrivateSocketDirectory(folder, "/data/one/traces/database");
    ensurePrivateSocketDirectory(folder, "/data/one/traces/database");
  });

  it("issue 33: refuses a socket folder open to others, a link in its place, and a socket file that is no socket", () => {
    const folder = traceSocketDirectory("/data/one/traces/database");
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chmodSync(dirname(folder), 0o755);
    expect(() => ensurePrivateSocketDirectory(folder, "/data/one")).toThrow(/is not a private folder of this user/);
    chmodSync(dirname(folder), 0o700);
    rmSync(folder, { recursive: true });
    const elsewhere = mkdtempSync(join(base, "elsewhere-"));
    symlinkSync(elsewhere, folder);
    expect(() => ensurePrivateSocketDirectory(folder, "/data/one")).toThrow(/is not a private folder of this user/);
    rmSync(folder);
    ensurePrivateSocketDirectory(folder, "/data/one");
    writeFileSync(join(folder, socketFileName), "not a socket");
    expect(() => checkSocketFile(join(folder, socketFileName), "/data/one")).toThrow(/is not a socket of this user/);
  });

  it("issue 33: falls back to /tmp when the temp folder would make the socket path too long for the system", () => {
    process.env["TMPDIR"] = join(base, "x".repeat(90));
    const folder = traceSocketDirectory("/data/one/traces/database");
    expect(folder.startsWith("/tmp/")).toBe(true);
    expect(Buffer.byteLength(join(folder, socketFileName))).toBeLessThanOrEqual(103);
  });
});
