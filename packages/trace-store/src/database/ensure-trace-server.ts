import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { TraceStoreError } from "../trace-store-error.js";

/** What a server needs beyond waiting for a lock: loading PGlite and, the first time, creating the folder. */
const startAllowanceMs = 60_000;
const pollMs = 50;
/** While the folder is held, a new server is tried this often (the holder may be closing). */
const retryStartMs = 1_000;

/**
 * Where the server of a PGlite folder listens: a folder of this user's under the system's
 * temp folder, named by the PGlite folder's real path (a socket path must stay short), made
 * private (0700). `pg` reaches the socket `<folder>/.s.PGSQL.5432` as host `<folder>`.
 */
export function traceSocketDirectory(directory: string): string {
  const real = realPathOrSelf(resolve(directory));
  const user = typeof process.getuid === "function" ? process.getuid() : "user";
  const name = createHash("sha256").update(real).digest("hex").slice(0, 20);
  return join(tmpdir(), `lookup-knowledge-${user}`, name);
}

/**
 * Makes sure the folder's trace server runs (`trace-server.ts`) and returns the folder of its
 * socket. The server is the one process that opens the PGlite folder; every other process,
 * this one included, is its client over a Unix socket, so any number of them use one data
 * folder at once and none of them holds PGlite's memory. A server already listening is used;
 * else one is started (detached, so it outlives a short CLI command and serves the next) and
 * waited for. It exits by itself after `traceServerIdleExitMs` without a client.
 */
export async function ensureTraceServer(options: { directory: string; migrationsFolder: string; lockWaitMs: number }): Promise<string> {
  const socketDirectory = traceSocketDirectory(options.directory);
  const socketPath = join(socketDirectory, ".s.PGSQL.5432");
  if (await listening(socketPath)) return socketDirectory;
  makePrivateDirectory(socketDirectory, options.directory);
  mkdirSync(dirname(options.directory), { recursive: true });
  // While another process holds the folder (a server starting, or one closing after its idle
  // time), wait for its socket, and try again to start one once it let go.
  const heldUntil = Date.now() + options.lockWaitMs;
  for (;;) {
    const started = await startServer(options.directory, socketPath, options.migrationsFolder, options.lockWaitMs + startAllowanceMs);
    if (started === "ready") return socketDirectory;
    const retryAt = Math.min(heldUntil, Date.now() + retryStartMs);
    while (Date.now() < retryAt) {
      if (await listening(socketPath)) return socketDirectory;
      await new Promise((done) => setTimeout(done, pollMs));
    }
    if (Date.now() >= heldUntil) break;
  }
  throw unavailable(
    options.directory,
    `another process holds the folder (lock ${options.directory}.lock) and no trace server answered at ${socketPath} within ${options.lockWaitMs} ms`,
  );
}

/** Starts a server and waits for its "ready" line; "held" when another one holds the folder. */
function startServer(directory: string, socketPath: string, migrationsFolder: string, waitMs: number): Promise<"ready" | "held"> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [serverScript(), directory, socketPath, migrationsFolder], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: process.env,
    });
    let output = "";
    let errors = "";
    const timer = setTimeout(
      () => finish(() => fail(unavailable(directory, `its trace server did not start within ${waitMs} ms`))),
      waitMs,
    );
    const finish = (settle: () => void): void => {
      clearTimeout(timer);
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.removeAllListeners();
      child.unref();
      settle();
    };
    child.stdout?.setEncoding("utf8").on("data", (text: string) => {
      output += text;
      if (output.includes("ready\n")) finish(() => done("ready"));
    });
    child.stderr?.setEncoding("utf8").on("data", (text: string) => {
      errors += text;
    });
    child.once("error", (error) => finish(() => fail(unavailable(directory, `its trace server could not be started: ${error.message}`))));
    child.once("exit", (code) => {
      if (code === 3) finish(() => done("held"));
      else finish(() => fail(unavailable(directory, `its trace server stopped (exit ${code}): ${errors.trim() || "no message"}`)));
    });
  });
}

/** Whether something accepts connections on the socket now. */
function listening(socketPath: string): Promise<boolean> {
  if (!existsSync(socketPath)) return Promise.resolve(false);
  return new Promise((done) => {
    const socket = connect(socketPath);
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    socket.once("error", () => done(false));
  });
}

/** The server's script: beside this file once built; from the TypeScript sources, the built copy. */
function serverScript(): string {
  const here = fileURLToPath(new URL("./trace-server.js", import.meta.url));
  return existsSync(here) ? here : here.replace(/([\\/])src([\\/]database[\\/]trace-server\.js)$/, "$1dist$2");
}

function makePrivateDirectory(path: string, directory: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const stats = lstatSync(path);
  const mine = typeof process.getuid !== "function" || stats.uid === process.getuid();
  if (!stats.isDirectory() || !mine || (stats.mode & 0o077) !== 0) {
    throw unavailable(directory, `the socket folder ${path} is not a private folder of this user`);
  }
}

function realPathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), path.slice(dirname(path).length + 1));
    } catch {
      return path;
    }
  }
}

function unavailable(directory: string, reason: string): TraceStoreError {
  return new TraceStoreError({
    code: "trace_database_unavailable",
    message: `Could not open the embedded trace database at ${directory}: ${reason}.`,
    location: directory,
  });
}

/**
 * Stops the trace server of a PGlite folder, if one runs on this machine, and waits (up to
 * 10 s) until it has closed the database. Resolves to whether one was running.
 */
export async function stopTraceServer(directory: string): Promise<boolean> {
  const socketDirectory = traceSocketDirectory(directory);
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(join(socketDirectory, "server.pid"), "utf8"), 10);
  } catch {
    return false;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return false;
  }
  const until = Date.now() + 10_000;
  while (Date.now() < until && (existsSync(join(socketDirectory, "server.pid")) || isAlive(pid))) {
    await new Promise((done) => setTimeout(done, pollMs));
  }
  return true;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
