import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { connect } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  checkSocketFile,
  ensurePrivateSocketDirectory,
  socketFileName,
  traceSocketDirectory,
  unavailable,
} from "./trace-socket-directory.js";

/** What a server needs beyond waiting for a lock: loading PGlite and, the first time, creating the folder. */
const startAllowanceMs = 60_000;
const pollMs = 50;
/** While the folder is held, a new server is tried this often (the holder may be closing). */
const retryStartMs = 1_000;

/**
 * Makes sure the folder's trace server runs (`trace-server.ts`) and returns the folder of its
 * socket. The server is the one process that opens the PGlite folder; every other process,
 * this one included, is its client over a Unix socket, so any number of them use one data
 * folder at once and none of them holds PGlite's memory. A server already listening is used;
 * else one is started (detached, so it outlives a short CLI command and serves the next) and
 * waited for. It exits by itself after `traceServerIdleExitMs` without a client. The socket's
 * folder is checked to be this user's own before anything connects (`trace-socket-directory.ts`).
 */
export async function ensureTraceServer(options: { directory: string; migrationsFolder: string; lockWaitMs: number }): Promise<string> {
  if (process.platform === "win32") {
    throw unavailable(
      options.directory,
      "it is served over a Unix socket, which this system has not; set a PostgreSQL URL (traces.database-url) instead",
    );
  }
  const socketDirectory = traceSocketDirectory(options.directory);
  const socketPath = join(socketDirectory, socketFileName);
  ensurePrivateSocketDirectory(socketDirectory, options.directory);
  checkSocketFile(socketPath, options.directory);
  if (await listening(socketPath)) return socketDirectory;
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

/** Starts a server and waits for its "ready" line; "held" when another process holds the folder. */
function startServer(directory: string, socketPath: string, migrationsFolder: string, waitMs: number): Promise<"ready" | "held"> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [serverScript(), directory, socketPath, migrationsFolder], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: process.env,
      // Its working folder is nobody's: a long-lived server must not pin the starter's.
      cwd: "/",
    });
    let output = "";
    let errors = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish(() => fail(unavailable(directory, `its trace server did not start within ${waitMs} ms`)));
    }, waitMs);
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

/** Whether a server accepts connections on the socket now. */
function listening(socketPath: string): Promise<boolean> {
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
  return existsSync(here) ? here : here.replace(/([\\/])src([\\/]database[\\/]server[\\/]trace-server\.js)$/, "$1dist$2");
}
