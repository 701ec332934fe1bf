import type { IngestProgress } from "@lookup-knowledge/ingest";
import cliProgress from "cli-progress";
import { type ProgressDisplay, writeClock } from "./ingest-progress-display.js";

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
