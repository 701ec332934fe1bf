import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { installWithoutPeers } from "@lookup-knowledge/vitest-config/install-without-peers";
import { afterAll, describe, expect, it } from "vitest";
import { makeRecord } from "../../test/make-record.js";
import { TraceStoreError } from "../errors/trace-store-error.js";
import { asMissingPackageError, requireTraceDatabasePackages, traceDatabasePackages } from "./trace-database-packages.js";

const packageFolder = fileURLToPath(new URL("../..", import.meta.url));
const manifest = JSON.parse(readFileSync(join(packageFolder, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** Says every package is installed but `missing`. */
const installedBut =
  (...missing: string[]) =>
  (name: string): boolean =>
    !missing.includes(name);

const thrownBy = (work: () => void): TraceStoreError => {
  try {
    work();
  } catch (error) {
    if (TraceStoreError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("nothing was thrown");
};

describe("the trace database's packages (issue 35 item 5: pay for what you use)", () => {
  it("are optional peer dependencies of the package, at the versions named in the install command, and no dependency", () => {
    const named = { ...traceDatabasePackages.pglite, ...traceDatabasePackages.postgres };
    for (const [name, version] of Object.entries(named)) {
      expect(manifest.dependencies[name], name).toBeUndefined();
      expect(manifest.peerDependenciesMeta[name]?.optional, name).toBe(true);
      expect(manifest.peerDependencies[name]?.replace(/^\^/, ""), name).toBe(version);
    }
  });

  it("a missing one is a clear error naming each missing package and the command that installs them", () => {
    const error = thrownBy(() =>
      requireTraceDatabasePackages("pglite", "/data/traces/database", installedBut("@electric-sql/pglite", "pg")),
    );
    expect(error.code).toBe("trace_database_package_missing");
    expect(error.retryable).toBe(false);
    expect(error.location).toBe("/data/traces/database");
    expect(error.message).toContain(
      "The embedded trace database (PGlite, in /data/traces/database) needs the packages @electric-sql/pglite, pg, not installed",
    );
    expect(error.message).toContain("`npm install @electric-sql/pglite@0.5.14 pg@8.23.1`");
    expect(error.message).not.toContain("drizzle-orm");
  });

  it("PostgreSQL needs Drizzle and pg, not PGlite", () => {
    expect(() => requireTraceDatabasePackages("postgres", "postgres://db/traces", installedBut("@electric-sql/pglite"))).not.toThrow();
    const error = thrownBy(() => requireTraceDatabasePackages("postgres", "postgres://db/traces", installedBut("drizzle-orm")));
    expect(error.message).toContain("The PostgreSQL trace database (postgres://db/traces) needs the package drizzle-orm, not installed");
    expect(error.message).toContain("`npm install drizzle-orm@0.45.4`");
  });

  it("a driver whose load fails for want of one is that error too; another failure is not", () => {
    const notFound = Object.assign(new Error("Cannot find package 'drizzle-orm' imported from /x/create-drizzle-trace-database.js"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const error = asMissingPackageError(notFound, "postgres", "postgres://db/traces");
    expect(error?.code).toBe("trace_database_package_missing");
    expect(error?.message).toContain("needs the package drizzle-orm, not installed: run `npm install drizzle-orm@0.45.4`");
    expect(error?.cause).toBe(notFound);
    const other = Object.assign(new Error("Cannot find package 'left-pad' imported from /x.js"), { code: "ERR_MODULE_NOT_FOUND" });
    expect(asMissingPackageError(other, "postgres", "postgres://db/traces")).toBeUndefined();
    expect(asMissingPackageError(new Error("boom"), "pglite", "/data")).toBeUndefined();
  });

  it("every one is found in the workspace, where the package's tests run", () => {
    expect(() => requireTraceDatabasePackages("pglite", "/data")).not.toThrow();
  });
});

describe("installed without its optional peers (issue 35 item 5, R29)", () => {
  const root = mkdtempSync(join(tmpdir(), "trace-store-without-peers-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("a lookup's record is spooled, and reading the traces is a clear error naming the packages; the record waits in the spool", async () => {
    installWithoutPeers({
      root,
      packageFolder,
      copied: ["dist", "migrations"],
      linked: ["@lookup-knowledge/core", "zod", "proper-lockfile"],
    });
    const directory = join(root, "traces");
    const record = makeRecord(0, new Date(Date.UTC(2031, 0, 1)));
    const script = join(root, "read-traces.mjs");
    writeFileSync(
      script,
      [
        'import { createDurableTraceStore, openTraceDatabase } from "@lookup-knowledge/trace-store";',
        "const [directory, record] = [process.argv[2], JSON.parse(process.argv[3])];",
        "const store = createDurableTraceStore({ directory, flushIntervalMs: 0, onError: () => {} });",
        "store.append(record);",
        "const failure = (error) => ({ code: error.code, message: error.message });",
        "const listed = await store.list().then(() => 'listed', failure);",
        "await store.close();",
        "const postgres = await openTraceDatabase({ url: 'postgres://user:secret@127.0.0.1:1/traces' }).then(() => 'opened', failure);",
        "console.log(JSON.stringify({ listed, postgres }));",
      ].join("\n"),
    );
    // pnpm's bin shims set NODE_PATH to the workspace's hoisted packages; a user's install has none.
    const { NODE_PATH: _hoisted, ...environment } = process.env;
    const { stdout } = await promisify(execFile)(process.execPath, [script, directory, JSON.stringify(record)], {
      cwd: root,
      env: environment,
    });
    const { listed, postgres } = JSON.parse(stdout) as Record<string, { code: string; message: string }>;
    expect(listed?.code, listed?.message).toBe("trace_database_package_missing");
    expect(listed?.message).toContain(
      "needs the packages @electric-sql/pglite, @electric-sql/pglite-socket, drizzle-orm, pg, not installed: run `npm install @electric-sql/pglite@0.5.14 @electric-sql/pglite-socket@0.2.17 drizzle-orm@0.45.4 pg@8.23.1`",
    );
    expect(postgres?.code).toBe("trace_database_package_missing");
    expect(postgres?.message).toContain("(postgres://user:***@127.0.0.1:1/traces) needs the packages drizzle-orm, pg");
    const spool = join(directory, "spool");
    expect(existsSync(spool)).toBe(true);
    const lines = readdirSync(spool).flatMap((file) => readFileSync(join(spool, file), "utf8").split("\n").filter(Boolean));
    expect(lines.map((line) => (JSON.parse(line) as { id: string }).id)).toEqual([record.id]);
  });
});
