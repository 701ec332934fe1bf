// Where one build of ours spends its wall time when it is not on a CPU (issue 36 item 4): a
// `store-child.mjs build ours` process run with `--trace-gc` (and under `strace -c` for the
// syncs and writes, when BENCH_WAITS_STRACE=1), its threads sampled every 200 ms from /proc:
// each thread's CPU time and run-queue wait (schedstat: waiting for a CPU another process
// holds), the main thread's state per sample (R running or runnable, S asleep: the event loop
// waiting for the thread pool's writes and syncs, D in the kernel on I/O), the thread pool's
// threads seen in D, and the bytes the process read and wrote (/proc/<pid>/io).
//   node bench/index-peers/build-waits.mjs
//
// Environment: BENCH_WAITS_REPLICAS (default 20: SciFact x 20, 103,660 chunks; 200 is
// 1,036,600); BENCH_WAITS_CODE_ROOT (default this checkout: a built copy of the repository to
// build with); BENCH_WAITS_STRACE (default 0); BENCH_PEER_TIMEOUT_S (default 3600).
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { root } from "./corpus.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const replicas = Number(process.env.BENCH_WAITS_REPLICAS ?? 20);
if (!Number.isInteger(replicas) || replicas < 1)
  throw new Error(`BENCH_WAITS_REPLICAS must be a whole number of at least 1, got ${process.env.BENCH_WAITS_REPLICAS}`);
const codeRoot = process.env.BENCH_WAITS_CODE_ROOT ?? root;
const traced = process.env.BENCH_WAITS_STRACE === "1";
const timeoutMs = Number(process.env.BENCH_PEER_TIMEOUT_S ?? 3600) * 1000;

const directory = mkdtempSync(join(tmpdir(), "build-waits-"));
const straceFile = join(directory, "strace.txt");
const nodeArgs = [
  "--max-old-space-size=16384",
  "--trace-gc",
  join(here, "store-child.mjs"),
  "build",
  "ours",
  join(directory, "store"),
  String(replicas),
];
const command = traced
  ? [
      "strace",
      [
        "-f",
        "--seccomp-bpf",
        "-c",
        "-w",
        "-o",
        straceFile,
        "-e",
        "trace=fsync,fdatasync,write,pwrite64,openat",
        process.execPath,
        ...nodeArgs,
      ],
    ]
  : [process.execPath, nodeArgs];
const loadBefore = loadavg()[0];
const started = performance.now();
const child = spawn(command[0], command[1], {
  cwd: here,
  stdio: ["ignore", "pipe", "inherit"],
  env: { ...process.env, BENCH_CODE_ROOT: codeRoot },
});
const killer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);

let stdout = "";
child.stdout.setEncoding("utf8");
child.stdout.on("data", (text) => {
  stdout += text;
});

const read = (path) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};
/** The node process: the child itself, or strace's child. */
function nodePid() {
  if (!traced) return child.pid;
  const children = read(`/proc/${child.pid}/task/${child.pid}/children`)?.trim();
  return children ? Number(children.split(" ")[0]) : undefined;
}

const threads = new Map(); // tid -> { name, runNs, waitNs }
const states = { R: 0, S: 0, D: 0, other: 0 };
let samples = 0;
let othersInD = 0;
let io = {};
const sampler = setInterval(() => {
  const pid = nodePid();
  if (pid === undefined) return;
  let tids;
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return;
  }
  samples += 1;
  let anyOtherInD = false;
  for (const tid of tids) {
    const stat = read(`/proc/${pid}/task/${tid}/stat`);
    const schedstat = read(`/proc/${pid}/task/${tid}/schedstat`);
    if (stat === undefined || schedstat === undefined) continue;
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    const [runNs, waitNs] = schedstat.trim().split(" ").map(Number);
    const main = tid === String(pid);
    threads.set(tid, { name: main ? "main" : "others", runNs, waitNs });
    if (main) states[state in states ? state : "other"] += 1;
    else if (state === "D") anyOtherInD = true;
  }
  if (anyOtherInD) othersInD += 1;
  const ioText = read(`/proc/${pid}/io`);
  if (ioText !== undefined)
    io = Object.fromEntries(
      ioText
        .trim()
        .split("\n")
        .map((line) => line.split(": "))
        .map(([key, value]) => [key, Number(value)]),
    );
}, 200);

const status = await new Promise((resolve) => child.on("close", (code, signal) => resolve(code ?? signal)));
clearTimeout(killer);
clearInterval(sampler);
const wallSeconds = (performance.now() - started) / 1000;
const lines = stdout.trim().split("\n");
if (status !== 0) {
  // The store of a failed build (up to GBs at 1M chunks) is not left in the temporary folder.
  rmSync(directory, { recursive: true, force: true });
  throw new Error(`build failed: ${status}`);
}
const result = JSON.parse(lines.findLast((line) => line.startsWith("{")) ?? "{}");

// --trace-gc: "... ms: Scavenge 3.8 (4.0) -> 3.4 (5.0) MB, 4.40 / 0.00 ms ..." per collection.
const gc = { Scavenge: { count: 0, ms: 0 }, "Mark-Compact": { count: 0, ms: 0 }, other: { count: 0, ms: 0 } };
for (const line of lines) {
  const match = /ms: ([A-Za-z-]+)(?: \([^)]*\))? .*MB, ([\d.]+) \/ ([\d.]+) ms/.exec(line);
  if (match === null) continue;
  const kind = gc[match[1]] ?? gc.other;
  kind.count += 1;
  kind.ms += Number(match[2]);
}
const byName = {};
for (const { name, runNs, waitNs } of threads.values()) {
  byName[name] ??= { runS: 0, waitS: 0 };
  byName[name].runS += runNs / 1e9;
  byName[name].waitS += waitNs / 1e9;
}
const main = byName.main;
const round = (value) => Math.round(value * 10) / 10;
console.log(
  JSON.stringify(
    {
      replicas,
      codeRoot,
      chunks: result.chunks,
      storeSeconds: round(result.seconds),
      feedSeconds: round(result.feedSeconds),
      processWallSeconds: round(wallSeconds),
      peakRssMb: Math.round(result.peakRssMb),
      threads: Object.fromEntries(
        Object.entries(byName).map(([name, value]) => [name, { cpuS: round(value.runS), runQueueS: round(value.waitS) }]),
      ),
      mainThreadOffCpuNotQueuedS: main === undefined ? undefined : round(wallSeconds - main.runS - main.waitS),
      mainThreadStateSamples: states,
      samplesWithAnotherThreadInD: othersInD,
      samples,
      gc: Object.fromEntries(Object.entries(gc).map(([kind, value]) => [kind, { count: value.count, seconds: round(value.ms / 1000) }])),
      io: {
        readMb: Math.round((io.read_bytes ?? 0) / 1048576),
        writtenMb: Math.round((io.write_bytes ?? 0) / 1048576),
        writeCalls: io.syscw,
      },
      load: [loadBefore, loadavg()[0]],
    },
    null,
    1,
  ),
);
if (traced) console.log(read(straceFile));
rmSync(directory, { recursive: true, force: true });
