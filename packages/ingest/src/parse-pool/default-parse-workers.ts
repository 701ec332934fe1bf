import { availableParallelism, loadavg } from "node:os";

/** What the default number of parse threads is chosen from: the machine's cores and its load. */
export interface ParseMachine {
  /** `os.availableParallelism()`. */
  cores: number;
  /** The one-minute load average (`os.loadavg()[0]`; 0 where the system has none, as on Windows). */
  load: number;
}

/**
 * Idle cores needed before parsing moves to worker threads: two parse workers and the calling
 * thread, which meanwhile reads, embeds and indexes.
 */
export const idleCoresForWorkers = 3;
/** The most parse workers the default starts: each warms its own JIT up, so more stop paying. */
export const maxDefaultParseWorkers = 4;

/**
 * `ingestFolder`'s default `parseWorkers`, from the machine it runs on: 1 (the calling thread)
 * unless at least `idleCoresForWorkers` cores are idle (cores minus the one-minute load), then
 * one worker per idle core but one, at most `maxDefaultParseWorkers`.
 *
 * Measured on the 2-core VM this is developed on (issue 36 item 6: the APISIX docs (en), 196
 * files, 3.2 MB, ingested into a new local index with the offline embedder, five interleaved
 * rounds, medians, one-minute load 12 from other work; `BENCH_PARSE_WORKERS=1,2,3 node
 * bench/ingest-peers/parse-workers.mjs`): the calling thread took 1,834 ms of CPU and 5.5 s
 * of wall time, two workers 2,855 ms (+56%) and 7.1 s, three 3,246 ms (+77%) and 7.3 s. Each
 * worker loads the parser and warms its JIT up again, and a cold parse is mostly JIT warm-up.
 * One worker parsing every file beside the calling thread (tried, not kept) took +12% CPU.
 * Workers can only pay where cores sit idle beside the calling thread, which a 2-core machine
 * never has: the rule keeps such machines, and busy larger ones, on the calling thread.
 */
export function defaultParseWorkers(machine: ParseMachine = { cores: availableParallelism(), load: loadavg()[0] ?? 0 }): number {
  const idle = Math.floor(machine.cores - Math.max(0, machine.load));
  if (idle < idleCoresForWorkers) return 1;
  return Math.min(maxDefaultParseWorkers, idle - 1);
}
