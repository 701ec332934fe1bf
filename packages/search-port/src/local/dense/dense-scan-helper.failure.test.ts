import type { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { DenseMatrix, parallelScanRows } from "./dense-matrix.js";
import { acquireDenseScanHelper, denseScanHelper, helperChunkCount, helperLostWarningCode } from "./dense-scan-helper.js";
import { random } from "../test/seeded-random-test-fixtures.js";

describe("issue 14: the dense scan when its helper thread dies", () => {
  it("goes on with exact dot products on one thread, starts no new worker, and says so once as a process warning", async () => {
    const release = acquireDenseScanHelper();
    try {
      const next = random(5);
      const count = parallelScanRows + 700;
      const split = new DenseMatrix(count, 32);
      const alone = new DenseMatrix(count, 32, { parallel: false });
      const rows = split.rowBytes();
      for (let index = 0; index < rows.length; index += 1) rows[index] = Math.floor(next() * 256);
      alone.rowBytes().set(rows);
      const vector = Array.from({ length: 32 }, () => next() - 0.5);
      expect(Array.from(split.dots(vector).dots)).toEqual(Array.from(alone.dots(vector).dots));
      const helper = denseScanHelper();
      expect(helper?.usable).toBe(true);
      const warnings: Error[] = [];
      const onWarning = (warning: Error) => warnings.push(warning);
      process.on("warning", onWarning);
      // The worker ends without the helper's `close` (as a crash would).
      await (helper as unknown as { worker: Worker }).worker.terminate();
      await helper?.exited;
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      process.off("warning", onWarning);
      // Said once, with its code, so an operator sees why searches got slower.
      expect(warnings.map((warning) => [(warning as Error & { code?: string }).code, warning.message])).toEqual([
        [helperLostWarningCode, expect.stringMatching(/dense scans run on one thread from now on \(its worker thread ended\)/)],
      ]);
      expect(helper?.usable).toBe(false);
      expect(denseScanHelper()).toBeUndefined();
      const before = helperChunkCount();
      for (let round = 0; round < 3; round += 1) {
        const other = Array.from({ length: 32 }, () => next() - 0.5);
        expect(Array.from(split.dots(other).dots)).toEqual(Array.from(alone.dots(other).dots));
      }
      expect(helperChunkCount()).toBe(before);
    } finally {
      release();
    }
  });
});
