import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

/** The built package: the child process runs the compiled port (turbo builds before it tests). */
const builtPort = join(dirname(fileURLToPath(import.meta.url)), "../../../dist/local/index.js");

let directory: string;
let lockPath: string;
let ownerFile: string;
const children: Array<ReturnType<typeof spawn>> = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "write-lock-takeover-"));
  lockPath = join(directory, "write.lock");
  ownerFile = join(lockPath, "owner.json");
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  rmSync(directory, { recursive: true, force: true });
});

/** A holder that ran on this host and is gone (no process has this id). */
const deadOwner = JSON.stringify({ pid: 2_147_483_000, hostname: hostname(), acquiredAt: "2026-01-01T00:00:00.000Z" });

/** Starts writer B in another process; resolves with the first line it prints: "locked" or "error <code>". */
function startWriterB(): Promise<string> {
  if (!existsSync(builtPort)) throw new Error(`${builtPort} is missing: build the package first (pnpm turbo run build)`);
  const script = [
    `const { openLocalSearchPort } = await import(${JSON.stringify(pathToFileURL(builtPort).href)});`,
    "try {",
    `  await openLocalSearchPort({ directory: ${JSON.stringify(directory)}, mode: "write" });`,
    `  process.stdout.write("locked\\n");`,
    "} catch (error) {",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the child script's own template literal
    "  process.stdout.write(`error ${error.code}\\n`);",
    "}",
    "setInterval(() => {}, 1000);",
  ].join("\n");
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let errors = "";
  child.stderr?.on("data", (data: Buffer) => (errors += data.toString()));
  return new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (data: Buffer) => {
      out += data.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0] as string);
    });
    child.on("exit", (code) => reject(new Error(`writer B exited (${code}): ${errors}`)));
  });
}

/**
 * The dead holder's lock, with its owner file a FIFO: each time writer B reads the owner,
 * its (synchronous) read waits until this test writes the owner and closes the pipe, so the
 * test decides what happens between B's reads.
 */
function makeDeadLockWithFifoOwner(): void {
  mkdirSync(lockPath);
  const made = spawnSync("mkfifo", [ownerFile]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
}

/**
 * Waits until B opens the owner file for reading, hands it `text`, and returns a function that
 * ends that read. B may already have claimed the lock by renaming its folder to
 * `write.lock.stale-*` (the FIFO moves with it), so the owner file is looked for there too.
 */
async function serveOwnerRead(text: string): Promise<() => Promise<void>> {
  for (let tries = 0; ; tries += 1) {
    const claimed = readdirSync(directory)
      .filter((name) => name.startsWith("write.lock.stale-"))
      .map((name) => join(directory, name, "owner.json"));
    const path = [ownerFile, ...claimed].find((candidate) => existsSync(candidate));
    try {
      if (path === undefined) throw Object.assign(new Error("no owner file yet"), { code: "ENOENT" });
      const pipe = await open(path, "w");
      await pipe.write(text);
      return () => pipe.close();
    } catch (error) {
      // Renamed between the look and the open: look again.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || tries >= 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

describe.skipIf(process.platform === "win32")("acquireWriteLock: two writers taking over the same dead holder", () => {
  it("never removes the fresh lock of a writer that took the dead holder's lock over between its check and its removal", async () => {
    makeDeadLockWithFifoOwner();
    const result = startWriterB();
    // B's first read: the holder is the dead one, so B goes on to take the lock over.
    await (await serveOwnerRead(deadOwner))();
    // B's second read (its check right before removing the folder) still finds the dead holder...
    const endRead = await serveOwnerRead(deadOwner);
    // ...but meanwhile writer A takes the lock over: it removes the dead holder's folder (if it
    // is still there) and makes its own, which is empty until A records itself.
    rmSync(lockPath, { recursive: true, force: true });
    mkdirSync(lockPath);
    const aLock = statSync(lockPath, { bigint: true }).ino;
    await endRead();
    // B must not take A's lock: exactly one writer holds it.
    expect(await result).toBe("error index_locked");
    expect(statSync(lockPath, { bigint: true }).ino).toBe(aLock);
    expect(readdirSync(directory).filter((name) => name.startsWith("write.lock.stale-"))).toEqual([]);
  });

  it("puts back, unchanged, a lock it claimed that turned out to be a live writer's, and gives up", async () => {
    makeDeadLockWithFifoOwner();
    const result = startWriterB();
    // B reads the dead holder; before it acts, writer A (this process, alive) takes the lock over.
    const endRead = await serveOwnerRead(deadOwner);
    rmSync(lockPath, { recursive: true, force: true });
    mkdirSync(lockPath);
    const aOwner = JSON.stringify({ pid: process.pid, hostname: hostname(), acquiredAt: new Date().toISOString() });
    writeFileSync(ownerFile, aOwner);
    const aLock = statSync(lockPath, { bigint: true }).ino;
    await endRead();
    expect(await result).toBe("error index_locked");
    expect(statSync(lockPath, { bigint: true }).ino).toBe(aLock);
    expect(existsSync(ownerFile)).toBe(true);
    expect(readdirSync(directory).filter((name) => name.startsWith("write.lock.stale-"))).toEqual([]);
  });

  it("lets exactly one of several writer processes take over a dead holder's lock at once", async () => {
    mkdirSync(lockPath);
    writeFileSync(ownerFile, deadOwner);
    const results = await Promise.all(Array.from({ length: 6 }, () => startWriterB()));
    expect(results.filter((line) => line === "locked")).toHaveLength(1);
    expect(results.filter((line) => line === "error index_locked")).toHaveLength(5);
    expect(readdirSync(directory).filter((name) => name.startsWith("write.lock.stale-"))).toEqual([]);
  });
});
