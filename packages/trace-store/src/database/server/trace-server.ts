// The embedded trace database's own process (`node trace-server.js <folder> <socket> <migrations>`).
// Started by `ensureTraceServer` when a process first needs the PGlite folder; see its comment.
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { acquireFileLock } from "../../durable/acquire-file-lock.js";
import { TraceStoreError } from "../../errors/trace-store-error.js";

/** With no client connected for this long, the server closes the database and exits. */
export const traceServerIdleExitMs = 15_000;
/** Clients served at once (each durable store keeps a pool of up to 4). */
const maxConnections = 32;

async function serve(directory: string, socketPath: string, migrationsFolder: string): Promise<void> {
  // One server per folder: the lock is held for the server's life. Another server already
  // holding it serves the folder, so this one leaves at once and its starter connects there.
  let release: () => Promise<void>;
  let lost: (() => void) | undefined;
  try {
    release = await acquireFileLock(`${directory}.lock`, {
      waitMs: 0,
      what: `The trace database ${directory}`,
      code: "trace_database_unavailable",
      // Taken over as stale (or removed): another server may open the folder now, so this one
      // must not touch it again.
      onCompromised: () => (lost ? lost() : process.exit(4)),
    });
  } catch (error) {
    if (!TraceStoreError.isInstance(error)) throw new Error(`could not take the lock ${directory}.lock: ${messageOf(error)}`);
    process.exitCode = 3;
    return;
  }
  const [{ PGlite }, { PGLiteSocketServer }, { drizzle }, { migrate }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite-socket"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  const db = await PGlite.create(directory).catch((error: unknown) => {
    throw new Error(`could not open the database: ${messageOf(error)}`);
  });
  try {
    await migrate(drizzle({ client: db }), { migrationsFolder });
  } catch (error) {
    await db.close().catch(() => undefined);
    throw new Error(`could not migrate the schema: ${messageOf(error)}`);
  }
  // The lock makes this the folder's only server: a socket file left by a killed one is stale.
  rmSync(socketPath, { force: true });
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections });
  const pidFile = join(dirname(socketPath), "server.pid");
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    clearInterval(idleCheck);
    await server.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
    rmSync(socketPath, { force: true });
    rmSync(pidFile, { force: true });
    await release();
  };
  lost = () => {
    void stop().finally(() => process.exit(4));
  };
  let idleSince = Date.now();
  server.addEventListener("connection", () => {
    idleSince = Date.now();
  });
  const idleCheck = setInterval(() => {
    if (server.getStats().activeConnections > 0) idleSince = Date.now();
    else if (Date.now() - idleSince >= idleExitMs) void stop();
  }, 500);
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.once(signal, () => void stop());
  await server.start();
  writeFileSync(pidFile, `${process.pid}\n`);
  // Ready: the starter waits for this line before it connects, then lets go of the pipes,
  // so nothing is written to them after it.
  ready = true;
  // The starter closes its ends of the pipes after this line: a later write (a warning) must
  // not end the server with EPIPE.
  process.stdout.on("error", () => undefined);
  process.stderr.on("error", () => undefined);
  process.stdout.write("ready\n");
}

let ready = false;

const idleSetting = Number.parseInt(process.env["LOOKUP_KNOWLEDGE_TRACE_SERVER_IDLE_MS"] ?? "", 10);
const idleExitMs = Number.isSafeInteger(idleSetting) && idleSetting >= 0 ? idleSetting : traceServerIdleExitMs;
const [directory, socketPath, migrationsFolder] = process.argv.slice(2);
if (directory !== undefined && socketPath !== undefined && migrationsFolder !== undefined) {
  serve(directory, socketPath, migrationsFolder).catch((error: unknown) => {
    if (!ready) process.stderr.write(`${messageOf(error)}\n`);
    process.exit(1);
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
