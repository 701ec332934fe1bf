import { resolve } from "node:path";
import {
  calibrateKnowledgeBase,
  readQuestionFile,
  storeIdentity,
  type CalibrationReport,
  type GateFigures,
} from "@lookup-knowledge/agent-tool/evaluation";
import { readIngestManifest } from "@lookup-knowledge/ingest/manifest";
import type { CliConfig } from "./cli-config.js";
import { warnUnknownRelevant } from "./eval-command.js";
import { printable } from "@lookup-knowledge/agent-tool/format";

/**
 * `lookup-knowledge calibrate --questions FILE`: fits the configured store's calibration on
 * the file's questions, writes it into the data folder, and returns the found/refused
 * trade-off before and after at the thresholds of the table.
 */
export async function runCalibrateCommand(
  config: CliConfig,
  options: { questions: string; warn: (message: string) => void },
): Promise<string> {
  const file = resolve(options.questions);
  const questions = await readQuestionFile(file);
  // The documents the last ingest recorded, to catch relevant paths that name none of them.
  const manifest = await readIngestManifest(storeIdentity(config.store, config.dataDirectory).stateDirectory);
  const sources = manifest ? Object.values(manifest.documents).map((document) => document.entry.source) : [];
  warnUnknownRelevant(file, questions, sources, options.warn);
  const report = await calibrateKnowledgeBase({
    dataDirectory: config.dataDirectory,
    store: config.store,
    config: config.ragKeys,
    questions,
    questionFile: file,
    onWarning: options.warn,
  });
  return formatCalibrationReport(report, file);
}

/** The report: what was fitted on what, the trade-off table, what lookups use now, the file written. */
export function formatCalibrationReport(report: CalibrationReport, file: string): string {
  const { questions } = report;
  const lines = [
    `Calibrated the ${report.store} on ${file}: ${questions.answerable} answerable and ${questions.outOfScope} out-of-scope questions` +
      (questions.withoutHits > 0 ? ` (${questions.withoutHits} found no hit at all: refused whatever the calibration)` : "") +
      (report.penalty === undefined ? "" : `; L2 penalty ${report.penalty}`),
    "",
  ];
  const sameRows = report.before.rows.every((row, index) => sameCounts(row, report.after.rows[index]));
  const columns = sameRows ? [report.after] : [report.before, report.after];
  const cells = (figures: GateFigures, index: number) => {
    const row = figures.rows[index];
    if (!row) return ["", ""];
    return [`${row.answerableFound}/${row.answerableAsked}`, `${row.outOfScopeRefused}/${row.outOfScopeAsked}`];
  };
  const header = ["threshold", ...columns.flatMap(() => ["answerable found", "out-of-scope refused"])];
  const body = report.after.rows.map((row, index) => {
    const marks = [
      sameRows && report.before.inUse.threshold === row.threshold && report.before.inUse.threshold !== report.after.inUse.threshold
        ? "in use before"
        : "",
      report.after.inUse.threshold === row.threshold ? "in use now" : "",
    ].filter(Boolean);
    return [row.threshold.toFixed(2), ...columns.flatMap((figures) => cells(figures, index)), marks.join(", ")];
  });
  const widths = header.map((title, index) => Math.max(title.length, ...body.map((line) => line[index]?.length ?? 0)));
  const render = (line: string[]) =>
    line
      .map((cell, index) => cell.padEnd(widths[index] ?? 0))
      .join("  ")
      .trimEnd();
  if (sameRows && report.before.label !== report.after.label) {
    lines.push(`before (${report.before.label}) and after (${report.after.label}) give the same counts:`);
  }
  if (!sameRows) {
    const left = widths[0] ?? 0;
    const pair = (widths[1] ?? 0) + 2 + (widths[2] ?? 0);
    lines.push(`${" ".repeat(left)}  ${`before: ${report.before.label}`.padEnd(pair)}  after: ${report.after.label}`);
  }
  lines.push(render(header), widths.map((width) => "-".repeat(width)).join("  "));
  for (const line of body) lines.push(render(line));
  const now = report.after.inUse;
  const before = report.before.inUse;
  lines.push(
    "",
    `Before: ${atThreshold(report.before.label, before.threshold)}: answerable found ${before.answerableFound}/${before.answerableAsked}, out-of-scope refused ${before.outOfScopeRefused}/${before.outOfScopeAsked}.`,
    `Now:    ${atThreshold(report.after.label, now.threshold)}: answerable found ${now.answerableFound}/${now.answerableAsked}, out-of-scope refused ${now.outOfScopeRefused}/${now.outOfScopeAsked}.`,
    `Wrote ${report.file}; later lookups on this data folder and store use it (query, eval, openKnowledgeBase).`,
  );
  // File and store names, labels: no control character reaches the terminal.
  return lines.map(printable).join("\n");
}

/** `answerability-logistic@1001 at 0.35`; a fitted threshold is its own threshold. */
function atThreshold(label: string, threshold: number): string {
  return label === `reference threshold ${threshold}` ? label : `${label} at ${threshold}`;
}

function sameCounts(
  left: { answerableFound: number; outOfScopeRefused: number; threshold: number },
  right: typeof left | undefined,
): boolean {
  return (
    right !== undefined &&
    left.threshold === right.threshold &&
    left.answerableFound === right.answerableFound &&
    left.outOfScopeRefused === right.outOfScopeRefused
  );
}
