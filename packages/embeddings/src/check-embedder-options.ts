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

/**
 * `thread`: true or false, default false. Off unless asked: measured (issue 36 item 6,
 * `node bench/ingest-peers/embedding-thread.mjs`, the APISIX docs (en) into a new local index,
 * five interleaved rounds, medians) on the 2-core VM this is developed on, the thread took 0.98x
 * the wall time and 1.10x the CPU time under a load of 12.5, 1.05x and 1.15x under 7.2 (its own
 * module loads, word table and JIT warm-up); no machine where it paid has been measured.
 */
export function checkThread(value: boolean | undefined): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") throw new ConfigurationError({ key: "thread", value, reason: "must be true or false" });
  return value;
}
