import { resolve } from "node:path";
import type { IngestProgress, IngestReport } from "@lookup-knowledge/ingest";
import cliProgress from "cli-progress";
import { ingestIntoStore } from "@lookup-knowledge/agent-tool/ingest";
import type { CliConfig } from "./cli-config.js";
import { printable } from "@lookup-knowledge/agent-tool/format";

/** How progress is shown: a bar (a terminal), a line on stderr every few seconds (no terminal), or nothing. */
export type IngestProgressOutput = "bar" | "lines" | "none";

/** How often a progress line is written without a terminal. */
const progressLineMs = 5_000;
/** After SIGINT or SIGTERM, how long the run has to stop on its own before the process exits anyway. */
const interruptGraceMs = 1_500;

/**
 * `lookup-knowledge ingest <dir>`: ingests a folder of Markdown into the configured store
 * (the embedded index by default), incrementally, with progress on stderr (a bar on a
 * terminal that shows parsing, then writing; otherwise a line at each phase and every few
 * seconds), and returns the report.
 *
 * SIGINT or SIGTERM stops the run within a moment: parse workers are stopped and the manifest
 * is not written. The local index stages its writes, so it stays as the last finished ingest
 * left it; the other stores apply each delete and upsert at once, so what was written before
 * the signal stays (changed documents may be missing until the next run finishes). It then
 * resolves to `undefined` after saying so on stderr, with exit code 130 (SIGINT) or 143
 * (SIGTERM). A signal that arrives once the commit has begun lets the commit and the manifest
 * write finish (the forced exit is not armed then), and the run returns its report with that
 * exit code. A second signal exits at once.
 */
export async function runIngestCommand(
  folder: string,
  config: CliConfig,
  output: { progress: IngestProgressOutput | boolean; replace?: boolean; followSymlinks?: boolean },
): Promise<(IngestReport & { store: string }) | undefined> {
  const root = resolve(folder);
  const mode: IngestProgressOutput = output.progress === true ? "bar" : output.progress === false ? "none" : output.progress;
  const display = mode === "bar" ? createProgressBar() : mode === "lines" ? createProgressLines() : undefined;
  const interrupt = createIngestInterrupt();
  const onSignal = (signal: NodeJS.Signals): void => interrupt.onSignal(signal);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const options = output.followSymlinks ? { ...config.ingest, followSymlinks: true } : config.ingest;
  const storeKind = config.store?.kind ?? "local";
  try {
    const result = await ingestIntoStore({
      root,
      dataDirectory: config.dataDirectory,
      store: config.store,
      options,
      signal: interrupt.signal,
      onProgress: (progress) => {
        interrupt.onProgress(progress);
        display?.update(progress);
      },
      ...(output.replace ? { replace: true } : {}),
    });
    const received = interrupt.received;
    if (received !== undefined) {
      display?.stop();
      process.stderr.write(`lookup-knowledge: ${received} arrived while the ingest was committing; it finished first\n`);
      process.exitCode = exitCodeOf(received);
    }
    return result;
  } catch (error) {
    const received = interrupt.received;
    if (received === undefined) throw error;
    display?.stop();
    process.stderr.write(`${interruptedMessage(received, storeKind)}\n`);
    process.exitCode = exitCodeOf(received);
    return undefined;
  } finally {
    interrupt.dispose();
    display?.stop();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

function exitCodeOf(signal: NodeJS.Signals): number {
  return signal === "SIGINT" ? 130 : 143;
}

/**
 * What an interrupted ingest left, by store kind: only the local index stages its writes until
 * its commit; the other stores (Pinecone, LangChain, libsql) apply each delete and upsert at once.
 */
export function interruptedMessage(signal: NodeJS.Signals, storeKind: string): string {
  const left =
    storeKind === "local"
      ? "nothing of this run was committed; the index is as the last finished ingest left it"
      : "changes written before the interrupt were applied (changed documents may be missing until the next finished ingest); run ingest again to finish";
  return `lookup-knowledge: ingest interrupted by ${signal}; ${left}`;
}

/** The signal handling of an ingest run (see `runIngestCommand`), apart so it can be tested. */
export interface IngestInterrupt {
  readonly signal: AbortSignal;
  readonly received: NodeJS.Signals | undefined;
  onSignal(signal: NodeJS.Signals): void;
  onProgress(progress: IngestProgress): void;
  dispose(): void;
}

/**
 * The first signal aborts the run and arms a forced exit after `graceMs`, unless the run is
 * committing (its `commit` progress came): the commit and the manifest write are not cut, the
 * forced exit is neither armed nor fired then. A second signal exits at once.
 */
export function createIngestInterrupt(
  exit: (code: number) => void = (code) => process.exit(code),
  graceMs = interruptGraceMs,
): IngestInterrupt {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  let committing = false;
  let timer: NodeJS.Timeout | undefined;
  return {
    signal: controller.signal,
    get received() {
      return received;
    },
    onSignal(signal) {
      const code = exitCodeOf(signal);
      if (received !== undefined) {
        exit(code);
        return;
      }
      received = signal;
      controller.abort(new Error(`interrupted by ${signal}`));
      if (committing) return;
      timer = setTimeout(() => {
        if (!committing) exit(code);
      }, graceMs);
      timer.unref();
    },
    onProgress(progress) {
      if (progress.phase !== "commit" && progress.phase !== "done") return;
      committing = true;
      clearTimeout(timer);
    },
    dispose() {
      clearTimeout(timer);
    },
  };
}

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

function createProgressLines(): ProgressDisplay {
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

/** How many files with no content (or links not followed) the summary names. */
const noContentListed = 20;

/** The readable summary of an ingest run. */
export function formatIngestReport(report: IngestReport & { store?: string }): string {
  const seconds = report.durationMs / 1000;
  const rate = seconds > 0 ? Math.round(report.chunksWritten / seconds) : 0;
  const lines = [
    `Ingested ${report.root}${report.store ? ` into the ${report.store}` : ""}`,
    `  files      ${report.files} scanned: ${report.added} added, ${report.changed} changed, ${report.unchanged} unchanged, ${report.removed} removed, ${report.noContent.length} with no content, ${report.failed.length} skipped`,
    `  chunks     ${report.chunksWritten} written in ${seconds.toFixed(1)} s (${rate} chunks/s)`,
    `  documents  ${report.entries.length} in the knowledge base`,
  ];
  if (report.files === 0) {
    lines.push(
      "  no Markdown file (.md, .mdx) was found in this folder: check the path, or ingest.include and ingest.exclude in lookup-knowledge.config.json",
    );
  }
  if (report.noContent.length > 0) {
    const shown = report.noContent.slice(0, noContentListed);
    lines.push(`  files with no content (no body, title or description; not indexed):`);
    for (const source of shown) lines.push(`    ${printable(source)}`);
    if (report.noContent.length > shown.length) lines.push(`    ... and ${report.noContent.length - shown.length} more`);
  }
  if (report.failed.length > 0) {
    lines.push("  skipped files:");
    for (const failure of report.failed) lines.push(`    ${printable(failure.source)}: ${printable(failure.reason)}`);
  }
  const links = report.skipped;
  if (links.length > 0) {
    const shown = links.slice(0, noContentListed);
    lines.push(`  symbolic links not followed (${links.length}):`);
    for (const link of shown) lines.push(`    ${printable(link.source)}: ${printable(link.reason)}`);
    if (links.length > shown.length) lines.push(`    ... and ${links.length - shown.length} more`);
  }
  return lines.join("\n");
}
