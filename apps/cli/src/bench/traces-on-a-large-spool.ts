import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ingestIntoLocalIndex, tracesDirectory } from "@lookup-knowledge/agent-tool/local";
import { createTraceSpool, stopTraceServer, type ToolInvocationRecord } from "@lookup-knowledge/trace-store";

// `pnpm --filter @lookup-knowledge/cli bench:traces` (issue 35 item 4): `lookup-knowledge traces`
// on a spool of 10,000 records, wall time and peak memory. "spool" rows are the command as it
// is (answered from the spool, no database started); "database" rows do what every listing did
// before: flush the spool into the embedded database (PGlite, its own server process) and read
// it there. Peak memory is the command's process (VmHWM) and, when one ran, the trace server's.

const cli = fileURLToPath(new URL("../main.js", import.meta.url));
const knowledgeBase = fileURLToPath(new URL("../../../../examples/knowledge-base", import.meta.url));
const records = Number(process.env["BENCH_TRACE_RECORDS"] ?? 10_000);

/** A process's peak resident memory in MB, from /proc (0 when it is gone or unreadable). */
function peakMegabytes(pid: number): number {
  try {
    const line = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return line ? Number(line[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The pids of the trace servers serving `databaseDirectory`. */
function traceServers(databaseDirectory: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const command = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        return command.includes("trace-server.js") && command.includes(databaseDirectory);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Runs the CLI with `args` under GNU time; its wall time (ms), peak memory (MB), stderr and the trace server's peak memory. */
function timed(dataDirectory: string, args: string[]): { wallMs: number; peakMb: number; serverPeakMb: number; stderr: string } {
  const { DATABASE_URL: _ignored, ...environment } = process.env;
  const started = performance.now();
  const run = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, cli, "--data", dataDirectory, ...args], {
    encoding: "utf8",
    env: environment,
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallMs = performance.now() - started;
  if (run.status !== 0) throw new Error(`lookup-knowledge ${args.join(" ")} failed: ${run.stderr}`);
  const lines = run.stderr.trimEnd().split("\n");
  const peakMb = Number(lines.pop()) / 1024;
  const servers = traceServers(join(tracesDirectory(dataDirectory), "database"));
  return { wallMs, peakMb, serverPeakMb: servers.reduce((sum, pid) => sum + peakMegabytes(pid), 0), stderr: lines.join("\n") };
}

const row = (what: string, figures: ReturnType<typeof timed>): string =>
  `${what.padEnd(62)} ${figures.wallMs.toFixed(0).padStart(7)} ms ${figures.peakMb.toFixed(0).padStart(6)} MB ${
    figures.serverPeakMb > 0 ? `${figures.serverPeakMb.toFixed(0).padStart(6)} MB` : "     - "
  }`;

const root = mkdtempSync(join(tmpdir(), "cli-traces-bench-"));
const dataDirectory = join(root, "data");
try {
  await ingestIntoLocalIndex({ root: knowledgeBase, dataDirectory });
  // A real record as a lookup spools it, copied `records` times with its own id and time.
  execFileSync(process.execPath, [cli, "--data", dataDirectory, "query", "Who can issue a refund for a paid invoice?"], {
    stdio: "ignore",
  });
  const traces = tracesDirectory(dataDirectory);
  const spoolFolder = join(traces, "spool");
  const [template] = readdirSync(spoolFolder)
    .filter((name) => name.endsWith(".jsonl") && name !== "rejected.jsonl")
    .map((name) => JSON.parse(readFileSync(join(spoolFolder, name), "utf8").split("\n")[0] as string) as ToolInvocationRecord);
  if (template === undefined) throw new Error("the query spooled no record");
  rmSync(spoolFolder, { recursive: true, force: true });
  const spool = createTraceSpool({ directory: traces });
  const start = Date.now() - records * 60_000;
  for (let index = 0; index < records; index += 1) {
    const found = index % 3 !== 0;
    spool.append({
      ...template,
      id: `bench-${String(index).padStart(6, "0")}`,
      createdAt: new Date(start + index * 60_000).toISOString(),
      found,
    });
  }
  await spool.close();

  console.log(`lookup-knowledge traces on a spool of ${records} records, Node ${process.version}`);
  console.log(`${"what".padEnd(62)} ${"wall".padStart(10)} ${"peak".padStart(9)} ${"server".padStart(9)}`);
  const fromSpool = timed(dataDirectory, ["traces"]);
  console.log(row("spool: traces (20 newest)", fromSpool));
  console.log(
    row(
      "spool: traces --no-evidence --query refund --limit 50",
      timed(dataDirectory, ["traces", "--no-evidence", "--query", "refund", "--limit", "50"]),
    ),
  );
  console.log(row("spool: traces --since 1d --json", timed(dataDirectory, ["traces", "--since", "1d", "--json"])));
  console.log(row("spool: trace <id>", timed(dataDirectory, ["trace", "bench-005000"])));
  if (fromSpool.stderr !== "") throw new Error(`traces from the spool said something: ${fromSpool.stderr}`);
  // The database path, as every listing took it before: flush all 10k into PGlite, then read.
  console.log(
    row(
      "database: first read, flushes 10k records into a new PGlite",
      timed(dataDirectory, ["traces", "prune", "--older-than", "2000-01-01"]),
    ),
  );
  await stopTraceServer(join(traces, "database"));
  console.log(row("database: traces --limit 100 (more than the spool holds: 0)", timed(dataDirectory, ["traces", "--limit", "100"])));
  await stopTraceServer(join(traces, "database"));
} finally {
  rmSync(root, { recursive: true, force: true });
}
