import { availableParallelism, loadavg } from "node:os";
import { ConfigurationError } from "@lookup-knowledge/core";

export const defaultHashDimension = 256;
export const defaultLexicalWeight = 0.5;

/** `hashDimension`: an integer from 16 to 65536, default 256. */
export function checkHashDimension(value: number | undefined): number {
  if (value === undefined) return defaultHashDimension;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 16 || value > 65_536) {
    throw new ConfigurationError({ key: "hashDimension", value, reason: "must be an integer from 16 to 65536" });
  }
  return value;
}

/** `chineseGlosses`: true or false, default true. */
export function checkChineseGlosses(value: boolean | undefined): boolean {
  if (value === undefined) return true;
  if (typeof value !== "boolean") throw new ConfigurationError({ key: "chineseGlosses", value, reason: "must be true or false" });
  return value;
}

/** `lexicalWeight`: a number from 0 to 1, default 0.5. */
export function checkLexicalWeight(value: number | undefined): number {
  if (value === undefined) return defaultLexicalWeight;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new ConfigurationError({ key: "lexicalWeight", value, reason: "must be a number from 0 to 1" });
  }
  return value;
}

/** What the default of `thread` is chosen from: the machine's cores and its load. */
export interface EmbeddingMachine {
  /** `os.availableParallelism()`. */
  cores: number;
  /** The one-minute load average (`os.loadavg()[0]`; 0 where the system has none, as on Windows). */
  load: number;
}

/** Idle cores needed before documents are embedded on a thread: one for it, one for the caller. */
export const idleCoresForThread = 2;

/**
 * Whether the offline embedder works documents out on a thread of its own by default: when
 * the machine has `idleCoresForThread` idle cores (its cores minus its one-minute load).
 * The thread only pays where a core sits idle beside the caller: measured (issue 36 item 6,
 * `node bench/ingest-peers/embedding-thread.mjs`: the APISIX docs (en) into a new local index,
 * five interleaved rounds, medians) on the 2-core VM this is developed on under a load of 12.5
 * from other work, the thread took 0.98x the wall time (4,554 ms against 4,669) and 1.10x the
 * CPU time (2,520 ms against 2,288: its own module loads, word table and JIT warm-up).
 */
export function defaultEmbeddingThread(machine: EmbeddingMachine = { cores: availableParallelism(), load: loadavg()[0] ?? 0 }): boolean {
  return Math.floor(machine.cores - Math.max(0, machine.load)) >= idleCoresForThread;
}

/** `thread`: true or false, default `defaultEmbeddingThread()`. */
export function checkThread(value: boolean | undefined): boolean {
  if (value === undefined) return defaultEmbeddingThread();
  if (typeof value !== "boolean") throw new ConfigurationError({ key: "thread", value, reason: "must be true or false" });
  return value;
}
