import type { IngestProgress } from "@lookup-knowledge/ingest";
import cliProgress from "cli-progress";

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

/** How an ingest's progress is shown: each report, then `stop` once the run ends. */
export interface ProgressDisplay {
  update(progress: IngestProgress): void;
  stop(): void;
}

/** When the write phase started (its rate counts from there), given the progress reports. */
function writeClock(): (progress: IngestProgress) => number {
  let writeStarted: number | undefined;
  return (progress) => {
    if (progress.phase === "scan" || progress.phase === "parse") return 0;
    writeStarted ??= performance.now();
    return (performance.now() - writeStarted) / 1000;
  };
}

/** The word the bar shows for each phase. */
const barPhases: Record<IngestProgress["phase"], string> = {
  scan: "scanning",
  parse: "parsing",
  write: "writing",
  commit: "committing",
  done: "done",
};

/** The bar's line while parsing or writing; while the folder is scanned (no total yet) it says so instead. */
const barFormat = "ingest {phase} |{bar}| {value}/{total} {unit}{rate}";

/**
 * The bar on a terminal (`stream`, stderr by default): "ingest scanning the folder..." until the
 * number of files is known (no bar at 0/0), then files parsed of the files found, then chunks
 * written of the chunks to write; a total of 0 draws an empty bar, not a full one.
 */
export function createProgressBar(stream: NodeJS.WritableStream = process.stderr): ProgressDisplay {
  const bar = new cliProgress.SingleBar(
    {
      format: (options, params, payload: { phase?: string }) =>
        payload.phase === "scanning"
          ? "ingest scanning the folder..."
          : cliProgress.Format.Formatter({ ...options, format: barFormat }, params, payload),
      hideCursor: true,
      clearOnComplete: true,
      emptyOnZero: true,
      stream,
    },
    cliProgress.Presets.shades_classic,
  );
  const seconds = writeClock();
  let started = false;
  let stopped = false;
  let lastPhase: IngestProgress["phase"] = "scan";
  let rate = "";
  return {
    update(progress) {
      if (stopped) return;
      const writing = progress.phase !== "scan" && progress.phase !== "parse";
      // The bar redraws at most ten times a second; a phase that ends sooner would never be
      // seen, so its last frame (every file parsed, every chunk written) is drawn before the
      // bar turns to the next phase.
      if (started && progress.phase !== lastPhase) bar.render();
      lastPhase = progress.phase;
      const elapsed = seconds(progress);
      // The write rate stops at the end of writing: a commit that takes a while does not lower it.
      if (progress.phase === "write") rate = elapsed > 0 ? ` | ${Math.round(progress.chunksWritten / elapsed)} chunks/s` : "";
      const phase = barPhases[progress.phase];
      const payload = { phase, unit: writing ? "chunks" : "files", rate };
      const total = writing ? progress.chunksTotal : progress.filesTotal;
      const value = writing ? progress.chunksWritten : progress.filesDone;
      if (!started) {
        bar.start(total, value, payload);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(value, payload);
      }
    },
    stop() {
      if (started && !stopped) bar.stop();
      stopped = true;
    },
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
