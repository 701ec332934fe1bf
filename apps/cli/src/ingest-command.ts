import { resolve } from "node:path";
import type { IngestProgress, IngestReport } from "@lookup-knowledge/ingest";
import { ingestIntoStore } from "@lookup-knowledge/agent-tool/ingest";
import type { CliConfig } from "./cli-config.js";
import { createProgressLines } from "./ingest-progress-display.js";
import { printable } from "@lookup-knowledge/agent-tool/format";

/** How progress is shown: a bar (a terminal), a line on stderr every few seconds (no terminal), or nothing. */
export type IngestProgressOutput = "bar" | "lines" | "none";

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
  // The bar's module (and cli-progress) is loaded only for a terminal's bar.
  const display =
    mode === "bar" ? (await import("./ingest-progress-bar.js")).createProgressBar() : mode === "lines" ? createProgressLines() : undefined;
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
