import { vectorKernelBytes } from "./vector-kernel-bytes.js";

interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmModule {
  readonly kind?: "module";
}
interface WasmApi {
  validate(bytes: Uint8Array<ArrayBuffer>): boolean;
  Module: new (bytes: Uint8Array<ArrayBuffer>) => WasmModule;
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}

/** The runtime's WebAssembly API, or undefined where there is none. */
const wasm: WasmApi | undefined = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

/** The functions of `vectorKernelBytes`. */
interface VectorKernel {
  sum(rows: number, weights: number, count: number, dense: number, pairs: number, values: number): void;
  project(dense: number, common: number, dimension: number): number;
  squares(values: number, count: number): number;
  join(
    lexical: number,
    joined: number,
    hashDimension: number,
    lexicalFactor: number,
    dense: number,
    joinedDense: number,
    wordDimension: number,
    denseFactor: number,
  ): number;
  divide32(joined: number, count: number, norm: number, output: number): void;
}

/** Where each array lies in the kernel's memory (byte offsets; the int8 values of the words met so far at 0). */
interface Layout {
  rows: number;
  weights: number;
  dense: number;
  common: number;
  lexical: number;
  joined: number;
  output: number;
  bytes: number;
}

let compiled: WasmModule | null | undefined;

/** The compiled kernel, or null where this runtime cannot compile it (compiled once per process). */
function vectorKernelModule(): WasmModule | null {
  if (compiled !== undefined) return compiled;
  try {
    const bytes = vectorKernelBytes();
    compiled = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
  } catch {
    compiled = null;
  }
  return compiled;
}

function layoutOf(hashDimension: number, wordDimension: number, wordCount: number): Layout {
  const eight = (bytes: number) => Math.ceil(bytes / 8) * 8;
  const rows = eight(wordCount * wordDimension);
  const weights = rows + eight(wordCount * 4);
  const dense = weights + wordCount * 8;
  const common = dense + wordDimension * 8;
  const lexical = common + wordDimension * 8;
  const joined = lexical + hashDimension * 8;
  const output = joined + (hashDimension + wordDimension) * 8;
  return { rows, weights, dense, common, lexical, joined, output, bytes: output + (hashDimension + wordDimension) * 4 };
}

/**
 * The float arithmetic of one text's vector, on a WebAssembly kernel where the runtime has one
 * (and grants its memory: 5.6 MB with the default table), else on JavaScript loops; both give
 * the same values, bit for bit (the same operations in the same order). The working arrays
 * (`lexical`, `dense`, `joined`, `weights`) are views into the kernel's memory then, plain
 * arrays otherwise: the caller fills `lexical` and `weights` and reads `joined`.
 */
export class VectorArithmetic {
  // The working arrays: plain arrays until the kernel starts (`startKernel`), its memory's views after.
  lexical: Float64Array;
  dense: Float64Array;
  joined: Float64Array;
  /** By position in the text's ranks: the weight of that word's vector. */
  weights: Float64Array;
  private kernel: VectorKernel | undefined;
  /** Whether `startKernel` ran (the kernel is made at most once, or refused once). */
  private kernelTried = false;
  private readonly layout: Layout;
  /** The float32 row `divide32` writes, in the kernel's memory. */
  private row = new Float32Array(0);
  /** The int8 values of the words met so far, in the kernel's memory, in the order they were met. */
  private valuesInMemory = new Int8Array(0);
  /** By position in the text's ranks: the offset of that word's values in `valuesInMemory` (from `rowOf`), in the kernel's memory. */
  private rowsInMemory = new Int32Array(0);
  /** By rank: the offset of the word's values in `valuesInMemory` once copied, else -1. */
  private rowOf = new Int32Array(0);
  private rowsCopied = 0;
  private readonly commonDirection: Float64Array;

  constructor(
    private readonly hashDimension: number,
    private readonly wordDimension: number,
    private readonly wordCount: number,
    commonDirection: Float64Array,
  ) {
    this.layout = layoutOf(hashDimension, wordDimension, wordCount);
    this.commonDirection = commonDirection;
    this.weights = new Float64Array(wordCount);
    this.dense = new Float64Array(wordDimension);
    this.lexical = new Float64Array(hashDimension);
    this.joined = new Float64Array(hashDimension + wordDimension);
  }

  /**
   * Moves the arithmetic onto the kernel where the runtime grants it (once; later calls do
   * nothing). Called before a batch of documents, not for a query: a query is one short text,
   * which the loops embed as fast, and a one-query process would pay 4-6 ms of CPU to assemble,
   * compile and instantiate the kernel and map its memory (5.6 MB with the default table) for it.
   * Between texts nothing is carried in the working arrays, so the move changes no vector.
   */
  startKernel(): void {
    if (this.kernelTried) return;
    this.kernelTried = true;
    const { hashDimension, wordDimension, wordCount, layout } = this;
    // The kernel sums two columns at a time: a table of an odd dimension stays on the loops.
    const memory = wordDimension % 2 === 0 ? kernelMemory(layout.bytes) : undefined;
    const kernel = memory === undefined ? undefined : kernelOn(memory);
    if (memory === undefined || kernel === undefined) return;
    this.kernel = kernel;
    const { buffer } = memory;
    this.weights = new Float64Array(buffer, layout.weights, wordCount);
    this.dense = new Float64Array(buffer, layout.dense, wordDimension);
    new Float64Array(buffer, layout.common, wordDimension).set(this.commonDirection);
    this.lexical = new Float64Array(buffer, layout.lexical, hashDimension);
    this.joined = new Float64Array(buffer, layout.joined, hashDimension + wordDimension);
    this.rowOf = new Int32Array(wordCount).fill(-1);
    this.rowsInMemory = new Int32Array(buffer, layout.rows, wordCount);
    this.valuesInMemory = new Int8Array(buffer, 0, wordCount * wordDimension);
    this.row = new Float32Array(buffer, layout.output, hashDimension + wordDimension);
  }

  /** Whether the kernel runs (false: the JavaScript loops). */
  get onKernel(): boolean {
    return this.kernel !== undefined;
  }

  /**
   * `dense` set to the sum, in the order of `ranks`, of each word's int8 values (from
   * `values`, already read for these ranks) times its weight (`weights`, by position).
   */
  sumWordVectors(ranks: readonly number[], values: Int8Array): void {
    const { kernel, wordDimension, weights, dense } = this;
    if (kernel === undefined) {
      dense.fill(0);
      for (let index = 0; index < ranks.length; index += 1) {
        const weight = weights[index] as number;
        const offset = (ranks[index] as number) * wordDimension;
        for (let column = 0; column < wordDimension; column += 1) {
          dense[column] = (dense[column] as number) + weight * (values[offset + column] as number);
        }
      }
      return;
    }
    const { rowOf, layout, rowsInMemory, valuesInMemory } = this;
    for (let index = 0; index < ranks.length; index += 1) {
      const rank = ranks[index] as number;
      let row = rowOf[rank] as number;
      if (row < 0) {
        // A word's values are copied once, the first time a text has it (the table reads its
        // blocks as texts need them), after the words copied before: the memory a process
        // touches grows with the words it meets, not with the table.
        row = this.rowsCopied * wordDimension;
        this.rowsCopied += 1;
        const offset = rank * wordDimension;
        valuesInMemory.set(values.subarray(offset, offset + wordDimension), row);
        rowOf[rank] = row;
      }
      rowsInMemory[index] = row;
    }
    kernel.sum(layout.rows, layout.weights, ranks.length, layout.dense, wordDimension / 2, 0);
  }

  /** `dense` without its component along the common direction; its squared norm. */
  removeCommonDirection(): number {
    const { kernel, wordDimension, dense, commonDirection } = this;
    if (kernel !== undefined) return kernel.project(this.layout.dense, this.layout.common, wordDimension);
    let projection = 0;
    for (let column = 0; column < wordDimension; column += 1) {
      projection += (dense[column] as number) * (commonDirection[column] as number);
    }
    let normSquared = 0;
    for (let column = 0; column < wordDimension; column += 1) {
      const value = (dense[column] as number) - projection * (commonDirection[column] as number);
      dense[column] = value;
      normSquared += value * value;
    }
    return normSquared;
  }

  /** The squared norm of `lexical`. */
  lexicalNormSquared(): number {
    const { kernel, hashDimension, lexical } = this;
    if (kernel !== undefined) return kernel.squares(this.layout.lexical, hashDimension);
    let normSquared = 0;
    for (let bucket = 0; bucket < hashDimension; bucket += 1) {
      const value = lexical[bucket] as number;
      normSquared += value * value;
    }
    return normSquared;
  }

  /** `joined`: `lexical` times `lexicalFactor`, then `dense` times `denseFactor`; its norm. */
  join(lexicalFactor: number, denseFactor: number): number {
    const { kernel, hashDimension, wordDimension, lexical, dense, joined, layout } = this;
    if (kernel !== undefined) {
      const joinedDense = layout.joined + hashDimension * 8;
      return kernel.join(
        layout.lexical,
        layout.joined,
        hashDimension,
        lexicalFactor,
        layout.dense,
        joinedDense,
        wordDimension,
        denseFactor,
      );
    }
    for (let bucket = 0; bucket < hashDimension; bucket += 1) joined[bucket] = (lexical[bucket] as number) * lexicalFactor;
    for (let column = 0; column < wordDimension; column += 1) joined[hashDimension + column] = (dense[column] as number) * denseFactor;
    let norm = 0;
    for (let position = 0; position < joined.length; position += 1) {
      const value = joined[position] as number;
      norm += value * value;
    }
    return Math.sqrt(norm);
  }

  /** Float32 rows from `offset` of `output`: each value of `joined` divided by `norm` (the final L2 normalisation). */
  writeRow(norm: number, output: Float32Array, offset: number): void {
    const { kernel, joined, layout } = this;
    if (kernel === undefined) {
      writeDivided(joined, norm, output, offset);
      return;
    }
    kernel.divide32(layout.joined, joined.length, norm, layout.output);
    output.set(this.row, offset);
  }
}

/** The kernel's functions on `memory`, or undefined where the runtime cannot compile or instantiate it (the loops run then). */
function kernelOn(memory: WasmMemory): VectorKernel | undefined {
  const module = vectorKernelModule();
  if (module === null || wasm === undefined) return undefined;
  try {
    return new wasm.Instance(module, { env: { memory } }).exports as unknown as VectorKernel;
  } catch {
    return undefined;
  }
}

/** A WebAssembly memory of at least `bytes`, or undefined where there is no WebAssembly or the runtime refuses one. */
function kernelMemory(bytes: number): WasmMemory | undefined {
  if (wasm === undefined) return undefined;
  try {
    return new wasm.Memory({ initial: Math.ceil(bytes / 65_536) });
  } catch {
    return undefined;
  }
}

/** `output` from `offset`: each value of `vector` divided by `norm` (the final L2 normalisation). */
export function writeDivided(vector: Float64Array, norm: number, output: number[] | Float32Array | Float64Array, offset: number): void {
  for (let position = 0; position < vector.length; position += 1) output[offset + position] = (vector[position] as number) / norm;
}
