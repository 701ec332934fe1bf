import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// Issue 35: a clone without the shared datasets runs `pnpm test` with those tests skipped;
// each test file that skips them says why on stderr, as the PostgreSQL suites do.

const empty = mkdtempSync(join(tmpdir(), "no-datasets-"));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

function declareTwoDatasetTests(environment: NodeJS.ProcessEnv) {
  const script = [
    'const { needsDatasets } = await import("@lookup-knowledge/vitest-config");',
    'process.stdout.write(JSON.stringify([needsDatasets("first"), needsDatasets("second")]));',
  ].join("\n");
  return spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: import.meta.dirname,
    env: environment,
    encoding: "utf8",
  });
}

describe("dataset tests without the datasets", () => {
  it("say why they skip once per file, with the folder and how to provide it", () => {
    const environment: NodeJS.ProcessEnv = { ...process.env, LOOKUP_KNOWLEDGE_DATASETS: join(empty, "missing") };
    delete environment.CI;
    const run = declareTwoDatasetTests(environment);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      `first (skipped: no datasets at ${join(empty, "missing")})`,
      `second (skipped: no datasets at ${join(empty, "missing")})`,
    ]);
    const lines = run.stderr.split("\n").filter((line) => line.startsWith("Skipping the tests that read the shared datasets"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(join(empty, "missing"));
    expect(lines[0]).toContain("LOOKUP_KNOWLEDGE_DATASETS");
  });

  it("print nothing when the datasets are there", () => {
    const run = declareTwoDatasetTests({ ...process.env, LOOKUP_KNOWLEDGE_DATASETS: empty });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(["first", "second"]);
    expect(run.stderr).not.toContain("Skipping the tests that read the shared datasets");
  });
});
