import { writeFileSync } from "node:fs";
import { printable } from "@lookup-knowledge/agent-tool/format";
import { pointInTimeForms } from "@lookup-knowledge/core";
import { type KnowledgeGapReport, readGapPeriodStart } from "@lookup-knowledge/trace-store";
import type { CliConfig } from "./cli-config.js";
import { CliError } from "./cli-error.js";
import { formatGapReport } from "./format-gap-report.js";
import { gapQuestionLines } from "./gap-question-lines.js";
import { openGapTerms } from "./gap-terms.js";
import { terminalJson } from "./terminal-json.js";
import { openCliTraceStore } from "./traces-command.js";

export interface GapsCommandOptions {
  /** An age (`30d`) or an ISO date, as `traces --since`; default `30d`. */
  since?: string;
  json?: boolean;
  /** A file to write the groups' example queries to, as a question file (`eval`, `calibrate`). */
  export?: string;
  now?: Date;
  environment?: NodeJS.ProcessEnv;
  /** Where the export's summary goes with `--json` (stderr), so that stdout stays one JSON value. */
  warn?: (message: string) => void;
}

/**
 * `lookup-knowledge gaps [--since 30d] [--json] [--export questions.jsonl]`: what people asked
 * that the knowledge base did not answer (issue 37). The trace store of the data folder (or
 * `DATABASE_URL`) groups the period's refused and low-relevance lookups; the knowledge base's
 * own analysis and term counts say which terms are salient. Under `traces.store-query: hash`
 * no query text is shown, and `--export`, which would write query text, is refused.
 */
export async function runGapsCommand(config: CliConfig, options: GapsCommandOptions = {}): Promise<string> {
  const now = options.now ?? new Date();
  const start = readGapPeriodStart(options.since, now);
  if ("problem" in start) {
    const expected =
      start.problem === "future"
        ? `${start.since.toISOString()} is in the future (now ${now.toISOString()})`
        : `expected ${pointInTimeForms}`;
    throw new CliError({ code: "invalid_option", message: `Invalid --since value ${JSON.stringify(options.since)}: ${expected}.` });
  }
  const { since } = start;
  const hashed = config.traces.queryStorage === "hash";
  if (options.export !== undefined && hashed) {
    throw new CliError({
      code: "invalid_option",
      message:
        "--export writes the groups' example queries, and traces.store-query is hash: no query text is kept to export. Run gaps without --export to see the groups built from the hints and sources.",
    });
  }
  const store = openCliTraceStore(config, options.environment);
  let report: KnowledgeGapReport;
  try {
    const terms = await openGapTerms(config);
    try {
      report = await store.knowledgeGaps({
        since,
        until: now,
        analyze: terms.analyze,
        ...(terms.documentFrequencies ? { documentFrequencies: terms.documentFrequencies } : {}),
        queryStorage: config.traces.queryStorage,
      });
    } finally {
      await terms.close();
    }
  } finally {
    await store.close();
  }
  const written = options.export === undefined ? undefined : exportQuestions(report, options.export);
  if (options.json) {
    if (written !== undefined) options.warn?.(printable(written));
    return terminalJson(report);
  }
  const output = formatGapReport(report);
  return written === undefined ? output : `${output}\n\n${printable(written)}`;
}

function exportQuestions(report: KnowledgeGapReport, file: string): string {
  const lines = gapQuestionLines(report);
  try {
    // `wx`: an existing file may be an earlier export whose `relevant` the owner filled in.
    writeFileSync(file, lines.length === 0 ? "" : `${lines.join("\n")}\n`, { flag: "wx" });
  } catch (error) {
    throw new CliError({
      code: "invalid_option",
      message: `Cannot write the --export file ${file}: ${writeFailure(error)}.`,
      cause: error,
    });
  }
  return `Wrote ${lines.length} question${lines.length === 1 ? "" : "s"} from ${report.groups.length} group${report.groups.length === 1 ? "" : "s"} to ${file} ("relevant": [] on each: fill in the pages that answer it, or leave it empty for out of scope; then lookup-knowledge calibrate --questions ${file}).`;
}

function writeFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "its folder does not exist";
  if (code === "EEXIST") return "it exists (it may hold answers filled in since an earlier export); remove it or name another file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a folder, not a file";
  return code ?? (error instanceof Error ? error.message : String(error));
}
