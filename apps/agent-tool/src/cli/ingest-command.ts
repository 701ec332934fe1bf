import { resolve } from "node:path";
import type { IngestProgress, IngestReport } from "@lookup-knowledge/ingest";
import cliProgress from "cli-progress";
import { ingestIntoStore } from "../open-knowledge-base.js";
import type { CliConfig } from "./cli-config.js";
import { printable } from "./printable.js";

/**
 * `lookup-knowledge ingest <dir>`: ingests a folder of Markdown into the configured store
 * (the embedded index by default),
 * incrementally, with a progress bar on a terminal, and prints a summary.
 */
export async function runIngestCommand(
  folder: string,
  config: CliConfig,
  output: { progress: boolean; replace?: boolean },
): Promise<IngestReport & { store: string }> {
  const root = resolve(folder);
  const bar = output.progress
    ? new cliProgress.SingleBar(
        {
          format: "ingest |{bar}| {value}/{total} files | {chunks} chunks | {rate} chunks/s",
          hideCursor: true,
          clearOnComplete: true,
          stream: process.stderr,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const started = performance.now();
  let barStarted = false;
  const onProgress = (progress: IngestProgress): void => {
    if (!bar) return;
    const seconds = (performance.now() - started) / 1000;
    const payload = { chunks: progress.chunksWritten, rate: seconds > 0 ? Math.round(progress.chunksWritten / seconds) : 0 };
    if (!barStarted) {
      bar.start(progress.filesTotal, progress.filesDone, payload);
      barStarted = true;
    } else {
      bar.setTotal(progress.filesTotal);
      bar.update(progress.filesDone, payload);
    }
  };
  try {
    return await ingestIntoStore({
      root,
      dataDirectory: config.dataDirectory,
      store: config.store,
      options: config.ingest,
      onProgress,
      ...(output.replace ? { replace: true } : {}),
    });
  } finally {
    if (barStarted) bar?.stop();
  }
}

/** How many files with no content the summary names. */
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
  if (report.noContent.length > 0) {
    const shown = report.noContent.slice(0, noContentListed);
    lines.push(`  files with no content (no body, title or description; not indexed):`);
    for (const source of shown) lines.push(`    ${printable(source)}`);
    if (report.noContent.length > shown.length) lines.push(`    ... and ${report.noContent.length - shown.length} more`);
  }
  if (report.failed.length > 0) {
    lines.push("  skipped files:");
    for (const failure of report.failed) lines.push(`    ${failure.source}: ${failure.reason}`);
  }
  return lines.join("\n");
}
