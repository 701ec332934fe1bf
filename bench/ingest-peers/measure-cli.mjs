// The CLI's ingest as a user runs it, measured from outside: `node <cli main> -d <new
// folder> ingest --no-progress <tree>` with exit-usage.mjs preloaded (the process's CPU time
// and peak RSS at exit). Shared by run.mjs and cli-ratio.mjs.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/**
 * One CLI ingest of `tree` into a new data folder by the CLI at `cliMain`: its printed
 * "written in" (`wallMs`, 0.1 s steps), CPU time and peak RSS of the whole process, chunks
 * written, and spawn to exit (`processMs`); or `{ failed }` with the reason.
 */
export function measureCli(cliMain, tree, timeoutMs) {
  const workspace = mkdtempSync(join(tmpdir(), "ingest-peers-cli-"));
  const usageFile = join(workspace, "usage.json");
  try {
    const started = performance.now();
    const run = spawnSync(
      process.execPath,
      ["--import", join(here, "exit-usage.mjs"), cliMain, "-d", join(workspace, "data"), "ingest", "--no-progress", tree],
      { cwd: workspace, encoding: "utf8", timeout: timeoutMs, env: { ...process.env, BENCH_USAGE_FILE: usageFile } },
    );
    const processMs = performance.now() - started;
    const written = /(\d+) written in ([\d.]+) s/.exec(run.stdout ?? "");
    if (run.status !== 0 || written === null)
      return { failed: `exit ${run.status ?? run.signal}: ${(run.stderr ?? "").trim().split("\n").slice(-1)[0]}` };
    const usage = JSON.parse(readFileSync(usageFile, "utf8"));
    return { wallMs: Number(written[2]) * 1000, cpuMs: usage.cpuMs, chunks: Number(written[1]), peakRssMb: usage.peakRssMb, processMs };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
