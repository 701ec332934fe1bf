import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IndexLockedError } from "../errors/index-locked-error.js";
import type { LocalSearchPort } from "../port/local-search-port.js";
import { openLocalSearchPort } from "../open-local-search-port.js";

/** The built package: the child process runs the compiled port (turbo builds before it tests). */
const builtPort = join(dirname(fileURLToPath(import.meta.url)), "../../../dist/local/index.js");

let directory: string;
const opened: LocalSearchPort[] = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "write-lock-"));
});

afterEach(async () => {
  for (const port of opened.splice(0)) await port.close();
  rmSync(directory, { recursive: true, force: true });
});

/** Starts a Node process that opens the index as a writer and holds it until it is killed. */
async function startWriterProcess(): Promise<ReturnType<typeof spawn>> {
  if (!existsSync(builtPort)) throw new Error(`${builtPort} is missing: build the package first (pnpm turbo run build)`);
  const script = [
    `const { openLocalSearchPort } = await import(${JSON.stringify(pathToFileURL(builtPort).href)});`,
    `await openLocalSearchPort({ directory: ${JSON.stringify(directory)}, mode: "write" });`,
    `process.stdout.write("locked\\n");`,
    "setInterval(() => {}, 1000);",
  ].join("\n");
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  let errors = "";
  child.stderr?.on("data", (data: Buffer) => (errors += data.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (data: Buffer) => {
      if (data.toString().includes("locked")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`the writer process exited (${code}) before it took the lock: ${errors}`)));
  });
  return child;
}

const lockedNaming = (pattern: RegExp) => (error: unknown) => IndexLockedError.isInstance(error) && pattern.test(error.message);

describe("acquireWriteLock", () => {
  it("takes over at once the lock of a writer process on this host that was killed (SIGKILL), without waiting 30 s", async () => {
    const child = await startWriterProcess();
    try {
      // While it lives, its lock holds, and the error names it.
      await expect(openLocalSearchPort({ directory, mode: "write" })).rejects.toSatisfy(
        lockedNaming(new RegExp(`process ${child.pid} on host ${hostname()}`)),
      );
    } finally {
      const exited = new Promise((resolve) => child.on("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    }
    expect(existsSync(join(directory, "write.lock"))).toBe(true);
    const started = Date.now();
    const writer = await openLocalSearchPort({ directory, mode: "write" });
    opened.push(writer);
    expect(Date.now() - started).toBeLessThan(5_000);
    await writer.upsert([{ id: "a", content: "after the takeover", metadata: {} }]);
    await writer.commit();
    expect(writer.stats().chunks).toBe(1);
  });

  it("keeps the stale-time rule for a lock held from another host, or with no owner recorded", async () => {
    const lockPath = join(directory, "write.lock");
    mkdirSync(lockPath);
    await expect(openLocalSearchPort({ directory, mode: "write" })).rejects.toSatisfy(lockedNaming(/another process is writing/));
    const owner = { pid: 2_147_483, hostname: `not-${hostname()}`, acquiredAt: new Date().toISOString() };
    writeFileSync(join(lockPath, "owner.json"), JSON.stringify(owner));
    await expect(openLocalSearchPort({ directory, mode: "write" })).rejects.toSatisfy(
      lockedNaming(new RegExp(`process 2147483 on host not-${hostname()}`)),
    );
    expect(existsSync(lockPath)).toBe(true);
  });

  it("records its owner in the lock folder and removes the folder, owner file included, on close", async () => {
    const writer = await openLocalSearchPort({ directory, mode: "write" });
    expect(existsSync(join(directory, "write.lock", "owner.json"))).toBe(true);
    await writer.close();
    expect(existsSync(join(directory, "write.lock"))).toBe(false);
  });
});
