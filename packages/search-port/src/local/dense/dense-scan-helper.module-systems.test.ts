import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** The built package: each child process runs the compiled files, as the CLI and a library user do. */
const builtDense = join(dirname(fileURLToPath(import.meta.url)), "../../../dist/local/dense");
const builtMatrix = join(builtDense, "dense-matrix.js");
const builtHelper = join(builtDense, "dense-scan-helper.js");

/**
 * The body every child runs once it has the two built modules (`matrixModule`,
 * `helperModule`): it holds the helper as an open port does, scans a matrix past
 * `parallelScanRows` rows (pausing this thread right after each wake-up so the worker has
 * time to claim chunks), waits until the worker's code has loaded or a helper-lost warning
 * came, and prints what it saw as one JSON line.
 */
const childBody = `
const { DenseMatrix, parallelScanRows, scanChunkRows } = matrixModule;
const { acquireDenseScanHelper, denseScanHelper, helperChunkCount, helperLostWarningCode } = helperModule;
const lost = [];
process.on("warning", (warning) => {
  if (warning.code === helperLostWarningCode) lost.push(warning.message);
});
const release = acquireDenseScanHelper();
const count = parallelScanRows + 3 * scanChunkRows + 17;
const split = new DenseMatrix(count, 64);
const alone = new DenseMatrix(count, 64, { parallel: false });
let seed = 36;
const next = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
const rows = split.rowBytes();
for (let index = 0; index < rows.length; index += 1) rows[index] = Math.floor(next() * 256);
alone.rowBytes().set(rows);
split.inverseNorms.fill(1 / 300);
alone.inverseNorms.fill(1 / 300);
const pause = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
let equal = true;
const scanOnce = () => {
  const vector = Array.from({ length: 64 }, () => next() - 0.5);
  const expected = alone.dots(vector).dots.join(",");
  if (split.scanInChunks(vector, pause, undefined).dots.join(",") !== expected) equal = false;
};
// A process's first small scan runs alone; asking for the helper starts the worker, and a worker that cannot load fails asynchronously.
scanOnce();
for (let wait = 0; wait < 500 && denseScanHelper()?.started !== true && lost.length === 0; wait += 1) {
  await new Promise((resolve) => setTimeout(resolve, 20));
}
const parallel = split.parallel;
const started = denseScanHelper()?.started === true;
for (let scan = 0; scan < 300 && started && helperChunkCount() === 0; scan += 1) scanOnce();
// Warnings are emitted on a later tick.
await new Promise((resolve) => setTimeout(resolve, 50));
process.stdout.write(JSON.stringify({ parallel, started, helperChunks: helperChunkCount(), equal, lost }) + "\\n");
release();
`;

const esmPrelude = `
const matrixModule = await import(${JSON.stringify(pathToFileURL(builtMatrix).href)});
const helperModule = await import(${JSON.stringify(pathToFileURL(builtHelper).href)});
`;

/** CommonJS: \`require\` of the ES module package (Node >= 20.19), the body in an async function. */
const commonJsScript = `
const matrixModule = require(${JSON.stringify(builtMatrix)});
const helperModule = require(${JSON.stringify(builtHelper)});
(async () => {
${childBody}
})().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

interface ChildReport {
  parallel: boolean;
  started: boolean;
  helperChunks: number;
  equal: boolean;
  lost: string[];
}

let directory: string;
let esmFile: string;
let commonJsFile: string;

beforeAll(() => {
  if (!existsSync(builtMatrix) || !existsSync(builtHelper)) {
    throw new Error(`${builtDense} is missing: build the package first (pnpm turbo run build)`);
  }
  directory = mkdtempSync(join(tmpdir(), "dense-scan-module-systems-"));
  esmFile = join(directory, "scan.mjs");
  commonJsFile = join(directory, "scan.cjs");
  writeFileSync(esmFile, esmPrelude + childBody);
  writeFileSync(commonJsFile, commonJsScript);
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

/** Runs `node <args>` with `NODE_OPTIONS` set as given and returns the JSON line it printed. */
function runChild(args: string[], nodeOptions = ""): ChildReport {
  const child = spawnSync(process.execPath, args, {
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: nodeOptions },
    timeout: 60_000,
  });
  if (child.status !== 0) throw new Error(`node ${args[0]} exited ${child.status}: ${child.stderr}`);
  const line = child.stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(line) as ChildReport;
}

const helped = { parallel: true, started: true, equal: true, lost: [] };

describe("issue 36 item 7: the dense-scan worker loads whatever module system the process was started in", () => {
  it("an ES module file, as the unbundled CLI (apps/cli/dist/main.js) runs (the bundled bin: apps/cli bundle-cli.workers.test.ts): the helper thread scans chunks", () => {
    const report = runChild([esmFile]);
    expect(report).toMatchObject(helped);
    expect(report.helperChunks).toBeGreaterThan(0);
  });

  it("`node --input-type=module -e`, as the benches start their children (the case that fell back to one thread)", () => {
    const report = runChild(["--input-type=module", "-e", esmPrelude + childBody]);
    expect(report).toMatchObject(helped);
    expect(report.helperChunks).toBeGreaterThan(0);
  });

  it("a CommonJS script run with NODE_OPTIONS=--input-type=module (the worker inherits it and would be an ES module)", () => {
    const report = runChild([commonJsFile], "--input-type=module");
    expect(report).toMatchObject(helped);
    expect(report.helperChunks).toBeGreaterThan(0);
  });

  it("a CommonJS script that require()s the built package", () => {
    const report = runChild([commonJsFile]);
    expect(report).toMatchObject(helped);
    expect(report.helperChunks).toBeGreaterThan(0);
  });
});
