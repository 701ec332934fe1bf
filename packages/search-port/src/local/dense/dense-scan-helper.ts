import { createRequire } from "node:module";
import type { MessagePort, Worker } from "node:worker_threads";
import type { WasmMemory, WasmModule } from "./kernels/int8-dot-kernel.js";
import { denseScanWorkerSource } from "./dense-scan-worker-source.js";

/**
 * Where a matrix's parts lie in its shared memory (byte offsets): the query, the rows, and
 * the helper thread's own int32 dot products (`workerOutputOffset`, one per row) and chunk
 * marks (`doneOffset`, an int32 per chunk: the number of the scan that finished it).
 */
export interface SharedScanLayout {
  queryOffset: number;
  rowsOffset: number;
  workerOutputOffset: number;
  doneOffset: number;
  stride: number;
  count: number;
}

/** A matrix the helper thread can scan: its shared memory, the kernel compiled for it, its layout. */
export interface SharedScanTarget {
  readonly id: number;
  readonly memory: WasmMemory;
  readonly kernel: WasmModule;
  readonly layout: SharedScanLayout;
}

// The control words, shared with the worker (dense-scan-worker-source.ts uses the same numbers).
const command = 0;
const currentJob = 1;
const nextChunk = 2;
const matrixId = 3;
const chunkCount = 4;
const chunkRows = 5;
const started = 6;
/** The low 16 bits of `nextChunk` count the chunks taken; the bits above are the scan's number (15 bits). */
export const maximumChunks = 0xfff0;

/** The number of the last scan handed to a helper thread, process-wide (1 to 0x7fff, then again from 1). */
let scans = 0;

/**
 * A second thread that scans rows of a `DenseMatrix` held in a shared WebAssembly memory
 * while the calling thread scans others. A scan is cut into chunks of rows, and each thread
 * claims the next chunk (`Atomics.add`) until none is left. The worker writes its dot
 * products to a region of its own and marks each chunk it finished with the scan's number;
 * the calling thread never waits for it: once no chunk is left to claim, it uses the chunks
 * marked done and scans again any the worker has not finished (it may be slow to wake, or
 * descheduled on a busy machine). A worker still busy with an old scan writes only to its
 * own region, under an old number, so it can never change the results of a later scan.
 *
 * One worker per process, created on the first parallel scan while a port holds the
 * helper (`acquireDenseScanHelper`), and ended when the last port lets go. It never keeps
 * the process alive (`unref`).
 */
export class DenseScanHelper {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly control: Int32Array;
  private readonly attached = new Set<number>();
  private closed = false;
  /** Settles once the worker thread has ended. */
  readonly exited: Promise<void>;
  private wakes = 0;

  /** `onFailure`: called once when the worker fails (its error) or ends without `close` (it will not be started again). */
  constructor(onFailure: (error?: Error) => void) {
    this.control = new Int32Array(new SharedArrayBuffer(8 * 4));
    // Issue 36 item 5: the built-in is loaded with the first helper, not with the module: a
    // process that never scans in parallel (a one-query CLI run streams its rows) does not load it.
    const threads = createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads");
    const channel = new threads.MessageChannel();
    this.port = channel.port1;
    this.worker = new threads.Worker(denseScanWorkerSource, {
      eval: true,
      workerData: { control: this.control, port: channel.port2 },
      transferList: [channel.port2],
      // The worker only calls the kernel: a small heap is plenty.
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    });
    this.worker.unref();
    this.port.unref();
    // A worker that fails to start or dies leaves the scans to the calling thread.
    this.worker.on("error", (error) => {
      if (!this.closed) onFailure(error);
      this.close();
    });
    this.exited = new Promise((resolve) => {
      this.worker.on("exit", () => {
        if (!this.closed) onFailure();
        this.closed = true;
        resolve();
      });
    });
  }

  get usable(): boolean {
    return !this.closed;
  }

  /** Whether the worker's code has loaded and runs (a diagnostic for tests: a worker that fails at load never sets it). */
  get started(): boolean {
    return Atomics.load(this.control, started) === 1;
  }

  /**
   * Starts the worker on a scan of `target` in `chunks` chunks of `rows` rows (the query is
   * already in the memory) and returns the scan's number (never 0), or 0 when the worker
   * cannot take part.
   */
  begin(target: SharedScanTarget, chunks: number, rows: number): number {
    if (this.closed || chunks > maximumChunks) return 0;
    if (!this.attached.has(target.id)) {
      this.port.postMessage({ type: "attach", id: target.id, memory: target.memory, kernel: target.kernel, layout: target.layout });
      this.attached.add(target.id);
    }
    // Numbered across helpers: a stopped worker still finishing a chunk marks it with a number no later scan has.
    scans = (scans % 0x7fff) + 1;
    const job = scans;
    const control = this.control;
    // JOB is 0 while the fields change, then the new number: the worker reads fields only between two equal loads of JOB.
    Atomics.store(control, currentJob, 0);
    Atomics.store(control, matrixId, target.id);
    Atomics.store(control, chunkCount, chunks);
    Atomics.store(control, chunkRows, rows);
    Atomics.store(control, nextChunk, job << 16);
    Atomics.store(control, currentJob, job);
    this.wake();
    return job;
  }

  /** The next chunk of the current scan for this thread; >= its chunk count once all are taken. */
  claim(): number {
    return Atomics.add(this.control, nextChunk, 1) & 0xffff;
  }

  /** Lets the worker drop a matrix (its memory) that no snapshot uses any more. */
  detach(id: number): void {
    if (this.closed || !this.attached.delete(id)) return;
    this.port.postMessage({ type: "detach", id });
    this.wake();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.port.postMessage({ type: "stop" });
    this.wake();
    this.port.close();
    void this.worker.terminate().catch(() => undefined);
  }

  private wake(): void {
    this.wakes = (this.wakes + 1) | 0;
    Atomics.store(this.control, command, this.wakes);
    Atomics.notify(this.control, command);
  }
}

let holders = 0;
let helper: DenseScanHelper | undefined;
let unavailable = false;
let allowed = true;
let chunksFromHelper = 0;

/** For tests: with false, scans run on the calling thread alone even while a port holds the helper. */
export function allowDenseScanHelper(allow: boolean): void {
  allowed = allow;
}

/** Whether this process has a helper thread now (started, or starting), without starting one: a diagnostic for tests. */
export function hasDenseScanHelper(): boolean {
  return helper !== undefined;
}

/** How many chunks of scans, since the process started, came from the helper thread (a diagnostic for tests and benches). */
export function helperChunkCount(): number {
  return chunksFromHelper;
}

/** Counts chunks the calling thread took from the helper thread (`DenseMatrix.scanInChunks`). */
export function countHelperChunks(chunks: number): void {
  chunksFromHelper += chunks;
}

/**
 * Marks the helper thread wanted (an open port); call the returned function once, on close.
 * The worker itself starts on the first scan that can use it and ends with the last holder.
 */
export function acquireDenseScanHelper(): () => void {
  holders += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders -= 1;
    if (holders === 0 && helper !== undefined) {
      helper.close();
      helper = undefined;
    }
  };
}

/** The helper thread, started if need be, or undefined when no port holds it or this runtime has no workers. */
export function denseScanHelper(): DenseScanHelper | undefined {
  if (holders === 0 || unavailable || !allowed) return undefined;
  if (helper?.usable === true) return helper;
  try {
    helper = new DenseScanHelper((error) => {
      // A worker that cannot run here (refused, crashed): one thread from now on, rather than a new worker per scan.
      unavailable = true;
      warnHelperLost(error);
    });
    return helper;
  } catch (error) {
    unavailable = true;
    helper = undefined;
    warnHelperLost(error instanceof Error ? error : undefined);
    return undefined;
  }
}

/**
 * Rows below which a process's first scan runs on the calling thread alone, starting no
 * worker: a worker takes some 30-90 ms (and as much CPU) to start, and a scan of fewer rows
 * ends before it could take a chunk. A one-query process (a CLI `query`) so never pays for
 * one (issue 36 item 5: 60-70 ms of CPU at 103,660 rows); the scans after it use the helper.
 */
export const firstScanHelperRows = 262_144;
let firstScanDone = false;

/** The helper thread for a scan of `rows` rows: none for a process's first scan of fewer than `firstScanHelperRows`, else `denseScanHelper()`. */
export function denseScanHelperFor(rows: number): DenseScanHelper | undefined {
  const first = !firstScanDone;
  firstScanDone = true;
  if (first && rows < firstScanHelperRows && helper === undefined) return undefined;
  return denseScanHelper();
}

/**
 * Whether a scan of `rows` rows would be the process's first, run on the calling thread alone
 * (below `firstScanHelperRows`, no helper running): the one scan that a streamed matrix takes
 * (issue 36 item 5: a one-query process reads the vectors chunk by chunk as it scans them;
 * later scans read them whole and may share the work with the helper).
 */
export function firstScanRunsAlone(rows: number): boolean {
  return !firstScanDone && rows < firstScanHelperRows && helper === undefined;
}

/** Counts a scan that took no helper (a streamed one) as the process's first. */
export function noteScanWithoutHelper(): void {
  firstScanDone = true;
}

/** The code of the process warning emitted when the helper thread is lost. */
export const helperLostWarningCode = "LOOKUP_KNOWLEDGE_DENSE_SCAN_ONE_THREAD";

/** Says once, as a process warning, that dense scans run on the calling thread alone from now on, and why. */
function warnHelperLost(error: Error | undefined): void {
  const why = error === undefined ? "its worker thread ended" : `its worker thread failed: ${error.message}`;
  process.emitWarning(`lookup-knowledge: dense scans run on one thread from now on (${why}); results are the same, searches slower`, {
    code: helperLostWarningCode,
  });
}

const finalizer = new FinalizationRegistry<number>((id) => helper?.detach(id));

/** Detaches `id` from the helper once `owner` (its matrix) is collected. */
export function detachWhenCollected(owner: object, id: number): void {
  finalizer.register(owner, id);
}
