#!/usr/bin/env node
import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { Command, Option } from "commander";
import { formatLookupResult } from "../format-lookup-result.js";
import { openLocalKnowledgeBase } from "../open-local-knowledge-base.js";
import { loadCliConfig } from "./cli-config.js";
import { formatIngestReport, runIngestCommand } from "./ingest-command.js";
import { parseFilterOptions } from "./parse-filter-option.js";

interface GlobalOptions {
  config?: string;
  data?: string;
}

const program = new Command()
  .name("lookup-knowledge")
  .description("Ingest a folder of Markdown and look knowledge up in it, with sources and reasons. No server, no keys.")
  .option("-c, --config <file>", "settings file (default: lookup-knowledge.config.json in this folder)")
  .option("-d, --data <dir>", "data folder for the index and manifests (default: .lookup-knowledge)")
  .showHelpAfterError();

program
  .command("ingest")
  .description("ingest a folder of .md/.mdx files (incremental: unchanged files are skipped)")
  .argument("<dir>", "the folder to ingest")
  .option("--no-progress", "no progress bar")
  .option("--replace", "replace the documents of another folder held in the data folder")
  .action(async (folder: string, options: { progress: boolean; replace?: boolean }) => {
    const config = await loadCliConfig(globalOptions());
    const report = await runIngestCommand(folder, config, {
      progress: options.progress && process.stderr.isTTY === true,
      ...(options.replace ? { replace: true } : {}),
    });
    console.log(formatIngestReport(report));
  });

program
  .command("query")
  .description("look a question up in the ingested knowledge base")
  .argument("<text>", "the question")
  .option("--json", "print the whole LookupResult as JSON")
  .addOption(
    new Option("-f, --filter <key=value>", "a caller filter on chunk metadata (repeatable; a number also matches as a number)")
      .argParser(collect)
      .default([]),
  )
  .action(async (text: string, options: { json?: boolean; filter: string[] }) => {
    const config = await loadCliConfig(globalOptions());
    const filter = parseFilterOptions(options.filter);
    const knowledgeBase = await openLocalKnowledgeBase({ dataDirectory: config.dataDirectory, config: config.ragKeys });
    try {
      const result = await knowledgeBase.retriever.lookup(text, filter ? { filter } : {});
      console.log(options.json ? JSON.stringify(result, null, 2) : formatLookupResult(result));
    } finally {
      await knowledgeBase.close();
    }
  });

program
  .command("stats")
  .description("what the knowledge base holds")
  .action(async () => {
    const config = await loadCliConfig(globalOptions());
    const knowledgeBase = await openLocalKnowledgeBase({ dataDirectory: config.dataDirectory });
    try {
      const stats = knowledgeBase.searchPort.stats();
      const lines = [
        `data folder  ${config.dataDirectory}`,
        `documents    ${stats.documents}`,
        `chunks       ${stats.chunks}`,
        `L0 entries   ${knowledgeBase.l0Index.size}`,
        `embedder     ${stats.embedder ? `${stats.embedder.id}@${stats.embedder.version} (${stats.embedder.dimension} dimensions)` : "none (lexical only)"}`,
        `on disk      ${(stats.bytesOnDisk / 1024 / 1024).toFixed(1)} MB`,
        `last commit  ${stats.lastCommit ?? "never"}`,
      ];
      console.log(lines.join("\n"));
    } finally {
      await knowledgeBase.close();
    }
  });

function globalOptions(): { configFile?: string; dataDirectory?: string } {
  const options = program.opts<GlobalOptions>();
  return { ...(options.config ? { configFile: options.config } : {}), ...(options.data ? { dataDirectory: options.data } : {}) };
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

// What to do next, for the errors a user can fix.
const hints: Record<string, string> = {
  index_not_found: "Run `lookup-knowledge ingest <folder>` first, or point --data at the folder you ingested into.",
  different_ingest_root: "Use another data folder (--data <dir>), or `lookup-knowledge ingest --replace <folder>` to replace it.",
  index_locked: "Another `lookup-knowledge ingest` is writing this data folder; wait for it to finish.",
};

try {
  await program.parseAsync();
} catch (error) {
  if (LookupKnowledgeError.isInstance(error)) {
    const hint = hints[error.code];
    console.error(`lookup-knowledge: ${error.message}${hint ? `\n${hint}` : ""}`);
    process.exitCode = 2;
  } else {
    // Not ours to explain: say what happened without a stack (DEBUG=lookup-knowledge shows it).
    console.error(`lookup-knowledge: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.DEBUG?.includes("lookup-knowledge")) console.error(error);
    process.exitCode = 1;
  }
}
