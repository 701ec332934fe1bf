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

/**
 * Starts writer B in another process; resolves with the first line it prints: "locked" or
 * "error <code>". Its first `gates` reads of an owner file each stop once the file is read,
 * before they return, until this test lets them go (`holdOwnerRead`): so the test decides
 * what happens between B's reads. (The owner file itself cannot be a FIFO that stalls them:
 * a writer reads only a regular file, without blocking.)
 */
function startWriterB(gates = 0): Promise<string> {
  if (!existsSync(builtPort)) throw new Error(`${builtPort} is missing: build the package first (pnpm turbo run build)`);
  for (let gate = 1; gate <= gates; gate += 1) {
    const made = spawnSync("mkfifo", [gatePath(gate)]);
    if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
  }
  const script = [
    'import fs from "node:fs";',
    'import { syncBuiltinESMExports } from "node:module";',
    `let passed = 0; const gates = ${gates}; const gatePrefix = ${JSON.stringify(gatePath(0).slice(0, -1))}; const reading = new Set();`,
    "const { openSync, closeSync, readFileSync } = fs;",
    // Read-only opens of an owner file are watched; closing one (the read is done) waits at the next gate.
    "fs.openSync = function (path, flags, ...rest) {",
    "  const descriptor = openSync.call(this, path, flags, ...rest);",
    '  if (String(path).endsWith("/owner.json") && typeof flags === "number" && (flags & 3) === 0) reading.add(descriptor);',
    "  return descriptor;",
    "};",
    "fs.closeSync = function (descriptor) {",
    "  if (reading.delete(descriptor) && passed < gates) { passed += 1; readFileSync(gatePrefix + passed); }",
    "  return closeSync.call(this, descriptor);",
    "};",
    "syncBuiltinESMExports();",
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

/** The FIFO B's read number `gate` waits at (one each, so a gate let go is never met again). */
function gatePath(gate: number): string {
  return join(directory, `gate-${gate}`);
}

/** The dead holder's lock, its owner file a regular one. */
function makeDeadLock(): void {
  mkdirSync(lockPath);
  writeFileSync(ownerFile, deadOwner);
}

/**
 * Waits until B has read an owner file for the `gate`th time (and holds the read there), and
 * returns a function that lets that read return what it read.
 */
async function holdOwnerRead(gate: number): Promise<() => Promise<void>> {
  const pipe = await open(gatePath(gate), "w");
  return () => pipe.close();
}

describe.skipIf(process.platform === "win32")("acquireWriteLock: two writers taking over the same dead holder", () => {
  it("never removes the fresh lock of a writer that took the dead holder's lock over between its check and its removal", async () => {
    makeDeadLock();
    const result = startWriterB(2);
    // B's first read: the holder is the dead one, so B goes on to take the lock over.
    await (await holdOwnerRead(1))();
    // B's second read (its check right before removing the folder) still finds the dead holder...
    const endRead = await holdOwnerRead(2);
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
    makeDeadLock();
    const result = startWriterB(1);
    // B reads the dead holder; before it acts, writer A (this process, alive) takes the lock over.
    const endRead = await holdOwnerRead(1);
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
