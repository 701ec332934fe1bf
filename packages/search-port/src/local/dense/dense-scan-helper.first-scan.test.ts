import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

// The built modules, in a process of their own: which scan of a process starts the worker is process-wide state.
const builtDense = join(dirname(fileURLToPath(import.meta.url)), "../../../dist/local/dense");
const url = (file: string) => JSON.stringify(pathToFileURL(join(builtDense, file)).href);

/** Scans a matrix of `rows` rows `scans` times in a fresh process holding the helper; what it saw after each scan. */
function scansInAFreshProcess(rows: string, scans: number): Array<{ helper: boolean; equal: boolean }> {
  const child = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const { DenseMatrix, parallelScanRows } = await import(${url("dense-matrix.js")});
       const { acquireDenseScanHelper, firstScanHelperRows, hasDenseScanHelper } = await import(${url("dense-scan-helper.js")});
       const release = acquireDenseScanHelper();
       const count = ${rows};
       const split = new DenseMatrix(count, 16);
       const alone = new DenseMatrix(count, 16, { parallel: false });
       const bytes = split.rowBytes();
       for (let index = 0; index < bytes.length; index += 1) bytes[index] = (index * 37) & 0xff;
       alone.rowBytes().set(bytes);
       const seen = [];
       for (let scan = 0; scan < ${scans}; scan += 1) {
         const vector = Array.from({ length: 16 }, (_, column) => ((column + scan) % 5) - 2);
         const equal = split.dots(vector).dots.join(",") === alone.dots(vector).dots.join(",");
         seen.push({ helper: hasDenseScanHelper(), equal });
       }
       process.stdout.write(JSON.stringify(seen));
       release();`,
    ],
    { encoding: "utf8", timeout: 60_000 },
  );
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout) as Array<{ helper: boolean; equal: boolean }>;
}

describe("issue 36 item 5: a process's first small dense scan starts no helper thread", () => {
  it("the first scan below firstScanHelperRows runs alone; the next one starts the worker; the dot products are the same", () => {
    const seen = scansInAFreshProcess("parallelScanRows + 100", 2);
    expect(seen.map((scan) => scan.equal)).toEqual([true, true]);
    expect(seen.map((scan) => scan.helper)).toEqual([false, true]);
  });

  it("a first scan of firstScanHelperRows rows or more starts it at once", () => {
    expect(scansInAFreshProcess("firstScanHelperRows", 1).map((scan) => scan.helper)).toEqual([true]);
  });
});
