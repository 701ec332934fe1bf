import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { TraceStoreError } from "../../errors/trace-store-error.js";

/** The socket file `pg` reaches as host `<folder>`, port 5432. */
export const socketFileName = ".s.PGSQL.5432";
/** The longest socket path every system takes (macOS: 104 bytes with the final NUL; Linux: 108). */
const maxSocketPathBytes = 103;

/**
 * Where the trace server of a PGlite folder listens: `<base>/lookup-knowledge-<uid>/<hash of
 * the folder's real path>`, the base being `$XDG_RUNTIME_DIR` when it is set, else the system
 * temp folder, else `/tmp`: the first that keeps the socket path short enough for every system
 * (Node cuts a longer one short without a word).
 */
export function traceSocketDirectory(directory: string): string {
  const real = realPathOrSelf(resolve(directory));
  const name = createHash("sha256").update(real).digest("hex").slice(0, 16);
  const user = `lookup-knowledge-${typeof process.getuid === "function" ? process.getuid() : "user"}`;
  const runtime = process.env["XDG_RUNTIME_DIR"];
  const bases = [...(runtime && runtime.startsWith("/") ? [runtime] : []), tmpdir(), "/tmp"];
  for (const base of bases) {
    const folder = join(base, user, name);
    if (Buffer.byteLength(join(folder, socketFileName)) <= maxSocketPathBytes) return folder;
  }
  throw unavailable(directory, `no folder keeps its socket path within ${maxSocketPathBytes} bytes (tried ${bases.join(", ")})`);
}

/**
 * Makes the socket folder and its parent, or checks them when they exist: each must be a real
 * folder (not a link), owned by this user and closed to everyone else (0700), so no other
 * user can stand in for the server or swap the folder. Refuses otherwise.
 */
export function ensurePrivateSocketDirectory(socketDirectory: string, directory: string): void {
  for (const folder of [dirname(socketDirectory), socketDirectory]) {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw unavailable(directory, `could not make the socket folder ${folder}: ${(error as Error).message}`);
      }
    }
    const stats = lstatSync(folder);
    const mine = typeof process.getuid !== "function" || stats.uid === process.getuid();
    if (!stats.isDirectory() || !mine || (stats.mode & 0o077) !== 0) {
      throw unavailable(
        directory,
        `the socket folder ${folder} is not a private folder of this user (a folder of mode 0700 it owns); remove it`,
      );
    }
  }
}

/** Whether the socket file, when it exists, is a socket of this user's (never another user's stand-in). */
export function checkSocketFile(socketPath: string, directory: string): void {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(socketPath);
  } catch {
    return;
  }
  const mine = typeof process.getuid !== "function" || stats.uid === process.getuid();
  if (!stats.isSocket() || !mine) throw unavailable(directory, `${socketPath} is not a socket of this user; remove it`);
}

export function unavailable(directory: string, reason: string): TraceStoreError {
  return new TraceStoreError({
    code: "trace_database_unavailable",
    message: `Could not open the embedded trace database at ${directory}: ${reason}.`,
    location: directory,
  });
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
