// The peers (LanceDB, SQLite with FTS5 and sqlite-vec), installed on demand from this folder's
// own lockfile, and the child processes every phase of the benches runs in.
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** Installs the peers from this folder's lockfile and loads them once; returns why not, or undefined when they load. */
export function installPeers() {
  try {
    execFileSync("pnpm", ["install", "--dir", here, "--ignore-workspace", "--frozen-lockfile", "--prefer-offline", "--reporter=silent"], {
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 600_000,
    });
  } catch (error) {
    const last = String(error.stderr ?? error.message)
      .trim()
      .split("\n")
      .slice(-1)[0];
    return `could not install the peers (${last || error.message})`;
  }
  const probe = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import "@lancedb/lancedb"; import "apache-arrow"; import Database from "better-sqlite3"; import * as vec from "sqlite-vec";
     const db = new Database(":memory:"); vec.load(db); db.exec("create virtual table t using fts5(x)"); db.close();`,
    ],
    { cwd: here, encoding: "utf8" },
  );
  if (probe.status !== 0) return `the peers do not load here (${probe.stderr.trim().split("\n").slice(-1)[0]})`;
  return undefined;
}

/**
 * Runs `script` (a file of this folder) with `args` in a child process and returns the JSON of
 * the last line it prints, or `{ failed }` saying why there is none.
 */
export function runChild(script, args, timeoutMs) {
  // A 1M-chunk build holds ~3 GB of chunk text on the JS heap, over V8's default limit.
  const run = spawnSync(process.execPath, ["--max-old-space-size=16384", join(here, script), ...args], {
    cwd: here,
    encoding: "utf8",
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (run.error !== undefined)
    return { failed: run.error.code === "ETIMEDOUT" ? `timed out after ${timeoutMs / 1000} s` : run.error.message };
  if (run.status !== 0) return { failed: `exit ${run.status ?? run.signal}` };
  const last = run.stdout.trim().split("\n").pop();
  return JSON.parse(last);
}

/** The bytes of every file under `directory`. */
export function bytesIn(directory) {
  let total = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    total += entry.isDirectory() ? bytesIn(path) : statSync(path).size;
  }
  return total;
}
