import { describe, expect, it } from "vitest";
import type { VectorRowsFile } from "../snapshot/index-snapshot.js";
import { DenseMatrix, quantiseVector, scanChunkRows } from "./dense-matrix.js";
import { streamedMatrix } from "./streamed-matrix.js";

const dimension = 37;

function randomMatrix(count: number, seed: number): DenseMatrix {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
  const matrix = new DenseMatrix(count, dimension);
  const codes = new Int8Array(matrix.stride);
  for (let slot = 0; slot < count; slot += 1) {
    // Every 97th row zero: a row without a dense score.
    const vector = Array.from({ length: dimension }, () => (slot % 97 === 0 ? 0 : next()));
    matrix.setRow(slot, codes, quantiseVector(vector, codes));
  }
  return matrix;
}

/** Rows `first..first + count - 1` of `source` as a vectors file read by rows, recording each read's row count and buffer. */
function rowsFile(source: DenseMatrix, first: number, count: number, reads: Array<{ rows: number; buffer: ArrayBufferLike }>) {
  const stride = source.stride;
  const file: VectorRowsFile = {
    count,
    dimension,
    readNorms: (into) => into.set(source.inverseNorms.subarray(first, first + count)),
    readRows: (from, into) => {
      reads.push({ rows: into.length / stride, buffer: into.buffer });
      into.set(source.rowBytes().subarray((first + from) * stride, (first + from) * stride + into.length));
    },
  };
  return file;
}

/** Every slot's dot product as `scanInChunks` hands them to `each`, and the ranges it gave. */
function scannedDots(matrix: DenseMatrix, query: number[]): { dots: number[]; ranges: number } {
  const dots = new Array<number>(matrix.count).fill(Number.NaN);
  let ranges = 0;
  matrix.scanInChunks(query, undefined, (start, end, chunk) => {
    ranges += 1;
    for (let slot = start; slot < end; slot += 1) dots[slot] = chunk[slot] as number;
  });
  return { dots, ranges };
}

describe("streamedMatrix", () => {
  it("issue 36 item 5: a first scan read chunk by chunk into one window from three files gives every row's dot product and norm as the whole matrix does", () => {
    const count = 2 * scanChunkRows + 300;
    const whole = randomMatrix(count, 11);
    const reads: Array<{ rows: number; buffer: ArrayBufferLike }> = [];
    const cuts = [0, 1000, scanChunkRows + 17, count];
    const pieces = cuts.slice(0, -1).map((first, index) => ({
      file: rowsFile(whole, first, (cuts[index + 1] as number) - first, reads),
      firstRow: first,
    }));
    const streamed = streamedMatrix(pieces, count, dimension);
    expect(Array.from(streamed.inverseNorms)).toEqual(Array.from(whole.inverseNorms));
    for (const seed of [5, 6]) {
      const query = Array.from({ length: dimension }, (_, index) => Math.sin(seed * (index + 1)));
      const expected = Array.from(whole.dots(query).dots);
      const { dots, ranges } = scannedDots(streamed, query);
      expect(dots).toEqual(expected);
      expect(ranges).toBe(3);
    }
    // Never more than a chunk of rows at a time, always into the same memory.
    expect(Math.max(...reads.map((read) => read.rows))).toBeLessThanOrEqual(scanChunkRows);
    expect(new Set(reads.map((read) => read.buffer)).size).toBe(1);
  });

  it("issue 36 item 5: scans the same way without WebAssembly (plain JavaScript)", () => {
    const count = scanChunkRows + 5;
    const whole = randomMatrix(count, 12);
    const file = rowsFile(whole, 0, count, []);
    const plain = new DenseMatrix(count, dimension, { simd: false, streamed: { read: (start, _end, into) => file.readRows(start, into) } });
    file.readNorms(plain.inverseNorms);
    expect(plain.simd).toBe(false);
    const query = Array.from({ length: dimension }, (_, index) => Math.cos(index));
    expect(scannedDots(plain, query).dots).toEqual(Array.from(whole.dots(query).dots));
  });

  it("issue 36 item 5: refuses what needs every row at once, and pieces that do not cover the rows, by name", () => {
    const whole = randomMatrix(10, 13);
    const streamed = streamedMatrix([{ file: rowsFile(whole, 0, 10, []), firstRow: 0 }], 10, dimension);
    expect(() => streamed.row(0)).toThrow(/DenseMatrix\.row: a streamed matrix holds no rows/);
    expect(() => streamed.rowBytes()).toThrow(/DenseMatrix\.rowBytes/);
    expect(() => whole.copyRows(streamed, 0, 0, 1)).toThrow(/DenseMatrix\.copyRows/);
    expect(() => streamedMatrix([{ file: rowsFile(whole, 0, 4, []), firstRow: 5 }], 9, dimension)).toThrow(
      /a piece of 4 rows of 37 dimensions at row 5 does not follow row 0/,
    );
    expect(() => streamedMatrix([{ file: rowsFile(whole, 0, 4, []), firstRow: 0 }], 9, dimension)).toThrow(/the pieces hold 4 rows, not 9/);
  });
});
