import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { errorMessage } from "@lookup-knowledge/core";

/** What the thread's embedder is made with: the options of the embedder that started it. */
export interface EmbeddingThreadOptions {
  hashDimension: number;
  lexicalWeight: number;
  chineseGlosses: boolean;
}

/** A request to the thread: document vectors of `texts`, as float32 rows or float64 values. */
export interface EmbeddingRequest {
  id: number;
  texts: string[];
  precision: "float32" | "float64";
}

/** The thread's answer: the vectors, one after another in one buffer, or why it could not. */
export type EmbeddingResponse = { id: number; vectors: Float32Array | Float64Array } | { id: number; error: string };

/** The threads of `EmbeddingThread.shared`, by options. */
const sharedThreads = new Map<string, EmbeddingThread>();

interface Waiting {
  resolve: (vectors: Float32Array | Float64Array) => void;
  reject: (error: Error) => void;
}

/**
 * An offline embedder of given options on a worker thread (`embedding-thread-worker.js`),
 * so document vectors are worked out while the calling thread goes on (an ingest parses the
 * next files meanwhile). The vectors are those of the calling thread's embedder, bit for bit:
 * the same code on the same texts. The thread keeps the process alive only while it has work.
 * Once it failed (it could not start, or died), every call rejects: callers embed on the
 * calling thread instead.
 */
export class EmbeddingThread {
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private failure: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.unref();
    worker.on("message", (response: EmbeddingResponse) => {
      const waiting = this.waiting.get(response.id);
      if (waiting === undefined) return;
      this.settled(response.id);
      if ("vectors" in response) waiting.resolve(response.vectors);
      else waiting.reject(new Error(response.error));
    });
    worker.on("error", (error) => this.fail(`the embedding thread failed: ${errorMessage(error)}`));
    worker.on("exit", (code) => this.fail(`the embedding thread exited with code ${code}`));
  }

  /**
   * The process's thread for embedders of these options, started on first need (one per
   * options, however many embedders ask: each thread holds its own word table), or undefined
   * when its script cannot run here. A thread that failed is replaced on the next call.
   */
  static shared(options: EmbeddingThreadOptions): EmbeddingThread | undefined {
    const key = `${options.hashDimension};${options.lexicalWeight};${options.chineseGlosses}`;
    const known = sharedThreads.get(key);
    if (known !== undefined && !known.failed) return known;
    const started = EmbeddingThread.start(options);
    if (started !== undefined) sharedThreads.set(key, started);
    return started;
  }

  /**
   * Starts a thread, or returns undefined when its script cannot run here: when the
   * package runs from its TypeScript sources (tests) or was bundled without the script.
   */
  static start(
    options: EmbeddingThreadOptions,
    script = new URL("./embedding-thread-worker.js", import.meta.url),
  ): EmbeddingThread | undefined {
    if (script.protocol !== "file:" || !existsSync(fileURLToPath(script))) return undefined;
    // Issue 36 item 5: the built-in is loaded with the first thread, not with the module: a
    // process that embeds on its calling thread (a query, the default ingest) does not load it.
    const threads = createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads");
    return new EmbeddingThread(new threads.Worker(script, { workerData: options }));
  }

  /** Whether the thread failed: every call rejects from then on. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** The document vectors of `texts` (strings, checked by the caller), one after another. */
  embed(texts: string[], precision: "float32" | "float64"): Promise<Float32Array | Float64Array> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, { resolve, reject });
      const request: EmbeddingRequest = { id, texts, precision };
      this.worker.postMessage(request);
    });
  }

  private settled(id: number): void {
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker.unref();
  }

  private fail(reason: string): void {
    if (this.failure !== undefined) return;
    this.failure = new Error(reason);
    for (const [id, waiting] of this.waiting) {
      this.settled(id);
      waiting.reject(this.failure);
    }
    void this.worker.terminate();
  }
}
