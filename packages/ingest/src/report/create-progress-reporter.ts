import type { IngestProgress } from "./ingest-progress.js";

/** An ingest's progress, and the function that reports it. */
export interface ProgressReporter {
  /** Where the run is; its counts are updated in place. */
  readonly progress: IngestProgress;
  /** Sets the phase and hands `onProgress` a copy of the progress. */
  report(phase: IngestProgress["phase"]): void;
}

/** A progress at the start of a run (phase `scan`, every count 0); nothing is reported yet. */
export function createProgressReporter(onProgress: ((progress: IngestProgress) => void) | undefined): ProgressReporter {
  const progress: IngestProgress = { phase: "scan", filesTotal: 0, filesDone: 0, chunksTotal: 0, chunksWritten: 0 };
  return {
    progress,
    report(phase: IngestProgress["phase"]): void {
      progress.phase = phase;
      onProgress?.({ ...progress });
    },
  };
}
