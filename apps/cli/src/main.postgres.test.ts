import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtCli } from "./test/built-cli.js";

// The real command, built, with DATABASE_URL pointing at a fresh database on the test
// PostgreSQL (`.ci/run` starts one and sets the variable; psql creates and drops the database).
const cli = builtCli;
const knowledgeBase = fileURLToPath(new URL("../../../examples/knowledge-base", import.meta.url));
const run = promisify(execFile);
const variable = "LOOKUP_KNOWLEDGE_TEST_DATABASE_URL";
const adminUrl = process.env[variable];

async function lookupKnowledge(
  cwd: string,
  databaseUrl: string | undefined,
  ...args: string[]
): Promise<{ stdout: string; stderr: string; code: number }> {
  const { DATABASE_URL: _ignored, ...environment } = process.env;
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      cwd,
      env: { ...environment, NO_COLOR: "1", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

if (adminUrl) {
  describe("the lookup-knowledge CLI with DATABASE_URL (PostgreSQL)", () => {
    const name = `lk_cli_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    let withData: string;
    let empty: string;
    let databaseUrl: string;
    beforeAll(async () => {
      await run("psql", [adminUrl, "-v", "ON_ERROR_STOP=1", "-qc", `create database "${name}"`]);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      // The password in the query string, where the shown form must hide it too.
      const password = decodeURIComponent(url.password);
      url.password = "";
      url.searchParams.set("password", password);
      databaseUrl = url.toString();
      withData = await mkdtemp(join(tmpdir(), "lookup-knowledge-cli-pg-"));
      empty = await mkdtemp(join(tmpdir(), "lookup-knowledge-cli-pg-empty-"));
    }, 60_000);
    afterAll(async () => {
      await rm(withData, { recursive: true, force: true });
      await rm(empty, { recursive: true, force: true });
      await run("psql", [adminUrl, "-qc", `drop database if exists "${name}" with (force)`]).catch(() => undefined);
    });

    it("R27: traces reads PostgreSQL from a folder without a data folder, and creates none", async () => {
      expect((await lookupKnowledge(withData, undefined, "ingest", "--no-progress", knowledgeBase)).code).toBe(0);
      expect((await lookupKnowledge(withData, undefined, "query", "Who can issue a refund for a paid invoice?")).code).toBe(0);
      // Where the lookup ran, traces moves its spool into PostgreSQL.
      const moved = await lookupKnowledge(withData, databaseUrl, "traces");
      expect(moved.stderr).toBe("");
      expect(moved.stdout).toMatch(/Who can issue a refund for a paid invoice\? +yes +L0\+L1 /);
      // Anywhere else, with no data folder: read from PostgreSQL, no spool to flush.
      const elsewhere = await lookupKnowledge(empty, databaseUrl, "traces", "--json");
      expect(elsewhere.code).toBe(0);
      expect(elsewhere.stderr).toBe("");
      const records = JSON.parse(elsewhere.stdout) as Array<{ query: string }>;
      expect(records.map((record) => record.query)).toEqual(["Who can issue a refund for a paid invoice?"]);
      expect(existsSync(join(empty, ".lookup-knowledge"))).toBe(false);
      // Without DATABASE_URL, the embedded database does need the data folder.
      const embedded = await lookupKnowledge(empty, undefined, "traces");
      expect(embedded.code).toBe(2);
      expect(embedded.stderr).toMatch(/There is no data folder at .*\.lookup-knowledge/);
    }, 120_000);

    it("traces prune prints where it deleted without the password of the query string", async () => {
      const password = new URL(databaseUrl).searchParams.get("password") ?? "";
      expect(password).not.toBe("");
      const pruned = await lookupKnowledge(empty, databaseUrl, "traces", "prune", "--older-than", "30d");
      expect(pruned.code).toBe(0);
      expect(pruned.stdout).toMatch(/^Deleted 0 recorded lookups from before .* \(postgres:\/\/.*password=\*\*\*\)\.$/m);
      expect(pruned.stdout).not.toContain(`password=${password}`);
    });
  });
} else if (process.env.CI) {
  describe("the lookup-knowledge CLI with DATABASE_URL (PostgreSQL)", () => {
    it("R27: runs in CI against a real PostgreSQL", () => {
      throw new Error(
        `${variable} is not set, so the CLI's PostgreSQL tests cannot run. CI must start PostgreSQL and set it (see .ci/run).`,
      );
    });
  });
} else {
  const reason = `${variable} is not set (a PostgreSQL URL whose role may create databases)`;
  console.warn(`Skipping the CLI's PostgreSQL tests: ${reason}.`);
  describe.skip(`the lookup-knowledge CLI with DATABASE_URL: skipped, ${reason}`, () => {
    it("R27: traces reads PostgreSQL without a data folder", () => undefined);
  });
}
