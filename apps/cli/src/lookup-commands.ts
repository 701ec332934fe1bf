import { parseFilterPairs } from "@lookup-knowledge/core";
import { formatLookupResult, printable } from "@lookup-knowledge/agent-tool/format";
import { Option } from "commander";
import { collect, examples, filterOptionName, warn } from "./command-line-helpers.js";
import { terminalJson } from "./terminal-json.js";
import { unmatchedFilterNote } from "./unmatched-filter-note.js";
import type { Command } from "commander";
import type { CommandLineContext } from "./command-line-context.js";

/** Adds `ingest`, `query` and `explain`: fill the knowledge base, and look questions up in it. */
export function addLookupCommands(program: Command, context: CommandLineContext): void {
  program
    .command("ingest")
    .description("ingest a folder of .md/.mdx files (incremental: unchanged files are skipped)")
    .addHelpText(
      "after",
      examples(
        "lookup-knowledge ingest examples/knowledge-base",
        "lookup-knowledge --data .my-docs ingest path/to/your/markdown --no-progress",
      ),
    )
    .argument("<dir>", "the folder to ingest")
    .option("--no-progress", "no progress (a bar on a terminal, otherwise a line on stderr every few seconds)")
    .option("--replace", "replace the documents of another folder held in the data folder")
    .option("--follow-symlinks", "follow symbolic links whose target is inside the folder (each file is read once)")
    .action(async (folder: string, options: { progress: boolean; replace?: boolean; followSymlinks?: boolean }) => {
      const { formatIngestReport, runIngestCommand } = await import("./ingest-command.js");
      const config = await context.cliConfig();
      const report = await runIngestCommand(folder, config, {
        progress: !options.progress ? "none" : process.stderr.isTTY === true ? "bar" : "lines",
        ...(options.replace ? { replace: true } : {}),
        ...(options.followSymlinks ? { followSymlinks: true } : {}),
      });
      // No report: interrupted (runIngestCommand said so and set the exit code).
      if (report) console.log(formatIngestReport(report));
    });

  program
    .command("query")
    .description("look a question up in the ingested knowledge base")
    .addHelpText(
      "after",
      examples(
        'lookup-knowledge query "Who can issue a refund for a paid invoice?"',
        'lookup-knowledge query "How long does a card refund take?" --filter category=billing --json',
      ),
    )
    .argument("<text>", "the question")
    .option("--json", "print the whole LookupResult as JSON")
    .addOption(
      new Option("-f, --filter <key=value>", "a caller filter on chunk metadata (repeatable; a number also matches as a number)")
        .argParser(collect)
        .default([]),
    )
    .action(async (text: string, options: { json?: boolean; filter: string[] }) => {
      // Issue 36 item 5: in the bin, from one file under a V8 code cache (load-query-path-bundled.ts).
      const { loadCliConfig, withLookupKnowledgeBase } = await context.queryPath();
      const config = await loadCliConfig(context.globalOptions());
      const filter = parseFilterPairs(options.filter, filterOptionName);
      await withLookupKnowledgeBase(config, warn, async (knowledgeBase) => {
        const result = await knowledgeBase.retriever.lookup(text, filter ? { filter } : {});
        const note = options.json ? undefined : unmatchedFilterNote(result, options.filter);
        console.log(options.json ? terminalJson(result) : formatLookupResult(result) + (note ? `\n${printable(note)}` : ""));
      });
    });

  program
    .command("explain")
    .description("say why a document you expected was or was not retrieved for a question, attempt by attempt")
    .addHelpText(
      "after",
      examples(
        'lookup-knowledge explain "Who can issue a refund for a paid invoice?" --expect billing/refunds.md',
        'lookup-knowledge explain "How long does a card refund take?" --expect billing/refunds --json',
      ),
    )
    .argument("<text>", "the question")
    .option("--expect <source>", "the expected source (billing/refunds.md, .md optional) or chunk (billing/refunds#chunk-2)")
    .option("--json", "print the whole explanation (and the LookupResult) as JSON")
    .addOption(
      new Option("-f, --filter <key=value>", "a caller filter on chunk metadata (repeatable; a number also matches as a number)")
        .argParser(collect)
        .default([]),
    )
    .action(async (text: string, options: { expect?: string; json?: boolean; filter: string[] }) => {
      const { runExplainCommand } = await import("./explain-command.js");
      const config = await context.cliConfig();
      const filter = parseFilterPairs(options.filter, filterOptionName);
      console.log(
        await runExplainCommand(config, text, {
          ...(options.expect === undefined ? {} : { expect: options.expect }),
          json: options.json === true,
          ...(filter ? { filter } : {}),
          warn,
        }),
      );
    });
}
