import {
  countedLoop,
  elementAddress,
  f32Store,
  f64,
  f64Load,
  f64Store,
  f64Zero,
  i32,
  i32Load,
  localGet,
  localSet,
  unsignedLeb,
  v128,
  wasmModule,
} from "./wasm-bytes.js";
import type { WasmFunction } from "./wasm-bytes.js";

// Opcodes the functions use besides loads and stores.
const f64Add = 0xa0;
const f64Sub = 0xa1;
const f64Mul = 0xa2;
const f64Div = 0xa3;
const f64Sqrt = 0x9f;
const f32FromF64 = 0xb6; // f32.demote_f64: the rounding of a store into a Float32Array
const i32Add = 0x6a;
const localTee = (index: number): number[] => [0x22, index];
const end = 0x0b;

/** `sum += value * value` for the f64 locals `sum` and `value`. */
const addSquare = (sum: number, value: number): number[] => [
  ...localGet(sum),
  ...localGet(value),
  ...localGet(value),
  f64Mul,
  f64Add,
  ...localSet(sum),
];

/** A SIMD128 instruction: the prefix 0xfd and its opcode (unsigned LEB128). */
const simd = (code: number): number[] => [0xfd, ...unsignedLeb(code)];
const v128Load64Splat = [...simd(0x0a), 0x03, 0x00]; // one float64 into both lanes
const v128Store = [...simd(0x0b), 0x03, 0x00];
const v128Load16Splat = [...simd(0x08), 0x00, 0x00]; // two int8 values, unaligned
const f64x2Splat = simd(0x14);
const i16x8FromLowI8x16 = simd(0x87); // i16x8.extend_low_i8x16_s
const i32x4FromLowI16x8 = simd(0xa7); // i32x4.extend_low_i16x8_s
const f64x2FromLowI32x4 = simd(0xfe); // f64x2.convert_low_i32x4_s
const f64x2Add = simd(0xf0);
const f64x2Mul = simd(0xf2);

/**
 * sum(rows, weights, count, dense, pairs, values): each of the `pairs * 2` float64 values at
 * `dense` is the sum, over the `count` words in order, of `weight * values[row + column]` (the
 * int8 values from `values`, each word's row offset an int32 at `rows`, its float64 weight at
 * `weights`), from 0: the word vectors' weighted sum. Two columns at a time in float64x2
 * lanes, kept in a register across the words: each column still sums on its own, in the
 * order of the words, as the JavaScript loop's `dense[c] = dense[c] + weight * value` does.
 */
function sumFunction(): WasmFunction {
  const [rows, weights, count, dense, pairs, values, pair, word, columns, accumulator] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const addWord = [
    ...localGet(accumulator),
    ...elementAddress(weights, word, 3),
    ...v128Load64Splat,
    ...elementAddress(rows, word, 2),
    ...i32Load,
    ...localGet(columns),
    i32Add,
    ...v128Load16Splat,
    ...i16x8FromLowI8x16,
    ...i32x4FromLowI16x8,
    ...f64x2FromLowI32x4,
    ...f64x2Mul,
    ...f64x2Add,
    ...localSet(accumulator),
  ];
  const sumPair = [
    ...elementAddress(values, pair, 1),
    ...localSet(columns),
    ...f64x2Splat0,
    ...localSet(accumulator),
    ...countedLoop(word, count, addWord),
    ...elementAddress(dense, pair, 4),
    ...localGet(accumulator),
    ...v128Store,
  ];
  return {
    parameters: [i32, i32, i32, i32, i32, i32],
    results: [],
    exportName: "sum",
    locals: [0x02, 0x03, i32, 0x01, v128],
    body: [...countedLoop(pair, pairs, sumPair), end],
  };
}

/** Two float64 zeros. */
const f64x2Splat0 = [...f64Zero, ...f64x2Splat];

/**
 * project(dense, common, dimension) -> squared norm: `projection`, the sum in column order of
 * `dense[c] * common[c]`, then each `dense[c] = dense[c] - projection * common[c]`, and the
 * sum in column order of the new values' squares.
 */
function projectFunction(): WasmFunction {
  const [dense, common, dimension, column, projection, value, norm] = [0, 1, 2, 3, 4, 5, 6];
  const dot = [
    ...localGet(projection),
    ...elementAddress(dense, column, 3),
    ...f64Load,
    ...elementAddress(common, column, 3),
    ...f64Load,
    f64Mul,
    f64Add,
    ...localSet(projection),
  ];
  const remove = [
    ...elementAddress(dense, column, 3),
    ...elementAddress(dense, column, 3),
    ...f64Load,
    ...localGet(projection),
    ...elementAddress(common, column, 3),
    ...f64Load,
    f64Mul,
    f64Sub,
    ...localTee(value),
    ...f64Store,
    ...addSquare(norm, value),
  ];
  return {
    parameters: [i32, i32, i32],
    results: [f64],
    exportName: "project",
    locals: [0x02, 0x01, i32, 0x03, f64],
    body: [...countedLoop(column, dimension, dot), ...countedLoop(column, dimension, remove), ...localGet(norm), end],
  };
}

/** squares(values, count) -> the sum, in order, of the squares of the `count` float64 values at `values`. */
function squaresFunction(): WasmFunction {
  const [values, count, index, value, sum] = [0, 1, 2, 3, 4];
  const square = [...elementAddress(values, index, 3), ...f64Load, ...localSet(value), ...addSquare(sum, value)];
  return {
    parameters: [i32, i32],
    results: [f64],
    exportName: "squares",
    locals: [0x02, 0x01, i32, 0x02, f64],
    body: [...countedLoop(index, count, square), ...localGet(sum), end],
  };
}

/**
 * join(lexical, joined, hashDimension, lexicalFactor, dense, joinedDense, wordDimension,
 * denseFactor) -> norm: `joined[b] = lexical[b] * lexicalFactor`, then `joinedDense[c] =
 * dense[c] * denseFactor`, and the square root of the sum of their squares in that order.
 */
function joinFunction(): WasmFunction {
  const [lexical, joined, hashDimension, lexicalFactor, dense, joinedDense, wordDimension, denseFactor, index, value, norm] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
  ];
  const scaled = (from: number, to: number, factor: number): number[] => [
    ...elementAddress(to, index, 3),
    ...elementAddress(from, index, 3),
    ...f64Load,
    ...localGet(factor),
    f64Mul,
    ...localTee(value),
    ...f64Store,
    ...addSquare(norm, value),
  ];
  return {
    parameters: [i32, i32, i32, f64, i32, i32, i32, f64],
    results: [f64],
    exportName: "join",
    locals: [0x02, 0x01, i32, 0x02, f64],
    body: [
      ...countedLoop(index, hashDimension, scaled(lexical, joined, lexicalFactor)),
      ...countedLoop(index, wordDimension, scaled(dense, joinedDense, denseFactor)),
      ...localGet(norm),
      f64Sqrt,
      end,
    ],
  };
}

/** divide32(joined, count, norm, output): each float32 at `output` is `joined[i] / norm` rounded to float32. */
function divideFunction(): WasmFunction {
  const [joined, count, norm, output, index] = [0, 1, 2, 3, 4];
  const divide = [
    ...elementAddress(output, index, 2),
    ...elementAddress(joined, index, 3),
    ...f64Load,
    ...localGet(norm),
    f64Div,
    f32FromF64,
    ...f32Store,
  ];
  return {
    parameters: [i32, i32, f64, i32],
    results: [],
    exportName: "divide32",
    locals: [0x01, 0x01, i32],
    body: [...countedLoop(index, count, divide), end],
  };
}

/**
 * The offline embedder's float arithmetic as one small WebAssembly module (SIMD128 in `sum`) that
 * imports its memory as `env.memory`: `sum`, `project`, `squares`, `join` and `divide32`, each
 * the operations of the JavaScript loop it stands for (`VectorArithmetic`), in the same order,
 * so the same bits. Why: a process embeds its texts cold, and V8's first tiers run those loops
 * with a boxed number at every step; WebAssembly runs compiled from its first call (issue 36 item 6).
 */
export function vectorKernelBytes(): Uint8Array<ArrayBuffer> {
  return wasmModule([sumFunction(), projectFunction(), squaresFunction(), joinFunction(), divideFunction()]);
}
