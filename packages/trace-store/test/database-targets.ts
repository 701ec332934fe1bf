import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import { migrate as migratePostgres } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { acquireFileLock } from "../src/durable/acquire-file-lock.js";
import { stopTraceServer } from "../src/database/server/stop-trace-server.js";
import { openTraceDatabase } from "../src/database/open-trace-database.js";
import type { TraceDatabase } from "../src/database/trace-database.js";
import { traceMigrationsFolder } from "../src/database/trace-migrations-folder.js";
import type { DurableTraceStoreOptions } from "../src/durable/create-durable-trace-store.js";
import { dropTestDatabase } from "./drop-test-database.js";
import { startTcpProxy } from "./start-tcp-proxy.js";

/** The variable naming the PostgreSQL the tests may create databases in (the role needs CREATEDB). */
export const testDatabaseUrlVariable = "LOOKUP_KNOWLEDGE_TEST_DATABASE_URL";

/** A real database the shared suite runs against: PGlite in a folder, or a PostgreSQL database. */
export interface DatabaseTarget {
  driver: "pglite" | "postgres";
  /** What a store needs to use this target's database (beside its own trace folder). */
  storeOptions: Pick<DurableTraceStoreOptions, "databaseUrl" | "databaseDirectory">;
  /** Makes the database unavailable to the stores until `restore`. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  /** A new, empty database with only the first `migrations` migrations applied; `sql` runs raw statements in it. */
  openAtMigration(migrations: number): Promise<OldDatabase>;
  cleanup(): Promise<void>;
}

export interface OldDatabase {
  storeOptions: Pick<DurableTraceStoreOptions, "databaseUrl" | "databaseDirectory">;
  sql(text: string, parameters?: unknown[]): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

/** A copy of the migrations folder that holds only its first `count` migrations. */
export function firstMigrations(count: number): string {
  const folder = mkdtempSync(join(tmpdir(), "trace-migrations-"));
  cpSync(traceMigrationsFolder, folder, { recursive: true });
  const journalFile = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: Array<{ tag: string }> };
  for (const entry of journal.entries.slice(count)) rmSync(join(folder, `${entry.tag}.sql`));
  journal.entries = journal.entries.slice(0, count);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

/** PGlite in a temporary folder, shared by the tests of a file (a cold create costs seconds). */
export async function pgliteTarget(): Promise<DatabaseTarget> {
  const root = mkdtempSync(join(tmpdir(), "trace-pglite-"));
  const directory = join(root, "database");
  // Created (and migrated) once here, so the tests only pay for opening it.
  await (await openTraceDatabase({ directory })).close();
  let release: (() => Promise<void>) | undefined;
  return {
    driver: "pglite",
    storeOptions: { databaseDirectory: directory },
    // The folder's trace server is stopped and its lock held here, as a process of an older
    // version holding the folder would: no server can start, stores cannot reach it.
    async cut() {
      await stopTraceServer(directory);
      release = await acquireFileLock(`${directory}.lock`, { waitMs: 15_000, what: "the test's hold" });
    },
    async restore() {
      await release?.();
      release = undefined;
    },
    async openAtMigration(count) {
      const folder = join(mkdtempSync(join(root, "old-")), "database");
      const client = await PGlite.create(folder);
      await migratePglite(drizzlePglite({ client }), { migrationsFolder: firstMigrations(count) });
      return {
        storeOptions: { databaseDirectory: folder },
        async sql(text, parameters) {
          return (await client.query<Record<string, unknown>>(text, parameters)).rows;
        },
        async close() {
          if (!client.closed) await client.close();
        },
      };
    },
    async cleanup() {
      await release?.();
      await stopTraceServer(directory);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh PostgreSQL database on the server of `adminUrl`, reached through a TCP proxy the
 * tests can cut (the server itself stays up for everyone else), dropped at the end.
 */
export async function postgresTarget(adminUrl: string): Promise<DatabaseTarget> {
  const created: string[] = [];
  async function createDatabase(): Promise<URL> {
    const name = `lk_trace_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(`create database "${name}"`);
    } finally {
      await admin.end();
    }
    created.push(name);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return url;
  }
  const databaseUrl = await createDatabase();
  const proxy = await startTcpProxy(databaseUrl.hostname || "127.0.0.1", Number(databaseUrl.port || 5432));
  const proxied = new URL(databaseUrl);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(proxy.port);
  return {
    driver: "postgres",
    storeOptions: { databaseUrl: proxied.toString() },
    cut: () => proxy.cut(),
    restore: () => proxy.restore(),
    async openAtMigration(count) {
      const url = await createDatabase();
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      await migratePostgres(drizzlePostgres({ client }), { migrationsFolder: firstMigrations(count) });
      return {
        storeOptions: { databaseUrl: url.toString() },
        async sql(text, parameters) {
          return (await client.query(text, parameters)).rows as Array<Record<string, unknown>>;
        },
        async close() {
          await client.end().catch(() => undefined);
        },
      };
    },
    async cleanup() {
      await proxy.close();
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        for (const name of created) await dropTestDatabase(admin, name);
      } finally {
        await admin.end();
      }
    },
  };
}
