import type { IngestProgress } from "@lookup-knowledge/ingest";

/** How often a progress line is written without a terminal. */
const progressLineMs = 5_000;

/** One line saying where an ingest is: `parsing 12/40 files`, `writing 300/4724 chunks (120 chunks/s)`. */
export function describeIngestProgress(progress: IngestProgress, writeSeconds: number): string {
  if (progress.phase === "scan") return "scanning the folder";
  if (progress.phase === "parse") return `parsing ${progress.filesDone}/${progress.filesTotal} files`;
  const rate = writeSeconds > 0 ? Math.round(progress.chunksWritten / writeSeconds) : 0;
  const written = `${progress.chunksWritten}/${progress.chunksTotal} chunks`;
  if (progress.phase === "write") return `writing ${written} (${rate} chunks/s)`;
  return progress.phase === "commit" ? `committing ${written} written` : `done: ${written} written`;
}

/**
 * How an ingest's progress is shown: each report, then `stop` once the run ends. The bar
 * (`createProgressBar`, a terminal's) is in its own file: it loads `cli-progress`, which
 * `--no-progress` and a run without a terminal do not need.
 */
export interface ProgressDisplay {
  update(progress: IngestProgress): void;
  stop(): void;
}

/** When the write phase started (its rate counts from there), given the progress reports. */
export function writeClock(): (progress: IngestProgress) => number {
  let writeStarted: number | undefined;
  return (progress) => {
    if (progress.phase === "scan" || progress.phase === "parse") return 0;
    writeStarted ??= performance.now();
    return (performance.now() - writeStarted) / 1000;
  };
}

/** Without a terminal: a line on stderr at each phase and every few seconds. */
export function createProgressLines(): ProgressDisplay {
  const seconds = writeClock();
  let latest: IngestProgress | undefined;
  let lastPhase: IngestProgress["phase"] | undefined;
  let lastWritten = 0;
  const write = (): void => {
    if (latest === undefined) return;
    lastWritten = performance.now();
    process.stderr.write(`lookup-knowledge: ingest ${describeIngestProgress(latest, seconds(latest))}\n`);
  };
  // Also on a timer: one large file gives no report for a long time.
  const timer = setInterval(write, progressLineMs);
  timer.unref();
  return {
    update(progress) {
      latest = progress;
      seconds(progress);
      if (progress.phase !== lastPhase || performance.now() - lastWritten >= progressLineMs) {
        lastPhase = progress.phase;
        write();
      }
    },
    stop() {
      clearInterval(timer);
    },
  };
}
