import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { traceSocketDirectory } from "./trace-socket-directory.js";

const pollMs = 50;

/**
 * Stops the trace server of a PGlite folder, if one runs on this machine, and waits (up to
 * 10 s) until it has closed the database. Resolves to whether it stopped. On Linux the pid
 * in its `server.pid` is only signalled when that process is a trace server.
 */
export async function stopTraceServer(directory: string): Promise<boolean> {
  const socketDirectory = traceSocketDirectory(directory);
  const pidFile = join(socketDirectory, "server.pid");
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(pidFile, "utf8"), 10);
  } catch {
    return false;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0 || !isTraceServer(pid)) return false;
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return false;
  }
  const until = Date.now() + 10_000;
  while (Date.now() < until && (existsSync(pidFile) || isAlive(pid))) {
    await new Promise((done) => setTimeout(done, pollMs));
  }
  return !isAlive(pid);
}

/** On Linux, whether the process runs `trace-server.js` (a pid file can outlive its process, and the pid be reused). */
function isTraceServer(pid: number): boolean {
  if (process.platform !== "linux") return isAlive(pid);
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("trace-server.js");
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
