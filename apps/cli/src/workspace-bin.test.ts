import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { LookupResult } from "@lookup-knowledge/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLookupKnowledge as lookupKnowledge } from "./test/run-lookup-knowledge.js";

const run = promisify(execFile);
const workspaceRoot = fileURLToPath(new URL("../../../", import.meta.url));

describe("lookup-knowledge from the workspace root", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-bin-"));
    await mkdir(join(folder, "kb"));
    await writeFile(join(folder, "kb", "refunds.md"), "# Refunds\n\nOwners can refund a paid invoice for 180 days.\n");
    expect((await lookupKnowledge(folder, "ingest", "--no-progress", "kb")).code).toBe(0);
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("npx lookup-knowledge ... --json runs the workspace's CLI and prints only the JSON", async () => {
    const { stdout } = await run(
      "npx",
      ["--offline", "lookup-knowledge", "--data", join(folder, ".lookup-knowledge"), "query", "--json", "refund a paid invoice"],
      {
        cwd: workspaceRoot,
        env: { ...process.env, NO_COLOR: "1", npm_config_update_notifier: "false" },
      },
    );
    expect(stdout.startsWith("{")).toBe(true);
    expect((JSON.parse(stdout) as LookupResult).found).toBe(true);
  });
});
