import { readFileSync } from "node:fs";
import { LookupKnowledgeError, fallbackReasons, parseFilterPairs } from "@lookup-knowledge/core";
import { Command, Option } from "commander";
import { formatLookupResult, printable } from "@lookup-knowledge/agent-tool/format";
import { storeKinds } from "@lookup-knowledge/agent-tool/store-settings";
import type { CliConfig, StoreFlags } from "./cli-config.js";
import type { McpCommandOptions } from "./mcp-command.js";
import { mcpHelpText } from "./mcp-command-help.js";
import type { InspectCommandOptions } from "./inspect-command.js";
import { CliError } from "./cli-error.js";
import { cliErrorMessage } from "./cli-error-message.js";
import { parseCountOption, parseTimeOption } from "./parse-time-option.js";
import { unmatchedFilterNote } from "./unmatched-filter-note.js";
import { redactSecrets } from "./redact-secrets.js";
import { errorHints, withGlobalOptionHint } from "./cli-hints.js";
import { reportedTraceStoreErrors } from "./reported-trace-store-errors.js";
import { terminalJson } from "./terminal-json.js";
import type { QueryPath } from "./load-query-path.js";

// Issue 36 item 5: the command line, which `main.ts` runs. In the bin it is one CommonJS file,
// `dist/bundle/command-line.cjs`, compiled from a V8 code cache (load-command-line-bundled.ts),
// which is why it has no top-level `await` and is handed the loader of the query path.

// Each command loads its own modules when it runs (`await import` in its action): `--help`
// loads no store, and a lookup does not load the Markdown parser. Only the small option
// parsers are loaded here.

// Issue 36 item 5: commander (a CommonJS package) is bundled into the bin with this file
// (scripts/bundle-cli.mjs), so a cold run reads none of its files and Node's CommonJS export
// scanner does not start; only the unbundled dist/command-line.js imports the package.

interface GlobalOptions {
  config?: string;
  data?: string;
  store?: string;
  index?: string;
  namespace?: string;
  host?: string;
  storeUrl?: string;
}

// This package's version, from its package.json beside `dist/` (read at run time: the same file
// in the workspace and when installed, where `files` keeps package.json).
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

const program = new Command()
  .name("lookup-knowledge")
  .version(version, "-V, --version", "print the version of lookup-knowledge")
  .description("Ingest a folder of Markdown and look knowledge up in it, with sources and reasons. No server, no keys.")
  .option("-c, --config <file>", "settings file (default: lookup-knowledge.config.json in this folder)")
  .option("-d, --data <dir>", "data folder for the index and manifests (default: .lookup-knowledge)")
  .addOption(new Option("--store <kind>", "where the chunks are stored (default: local)").choices([...storeKinds]))
  .option("--index <name>", "Pinecone: the index name (the key comes from PINECONE_API_KEY)")
  .option("--namespace <name>", "Pinecone: the namespace")
  .option("--host <url>", "Pinecone: the index host, instead of its name (give store.metric in the config file)")
  .option("--store-url <url>", "libSQL: the database URL, e.g. file:knowledge.db (a remote token comes from LIBSQL_AUTH_TOKEN)")
  .addHelpText(
    "after",
    examples("lookup-knowledge ingest examples/knowledge-base", 'lookup-knowledge query "Who can issue a refund for a paid invoice?"'),
  )
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(withGlobalOptionHint(text)) })
  // The global options come before the command: `mcp --host` is the address to bind, not Pinecone's host.
  .enablePositionalOptions();

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
    const config = await cliConfig();
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
    const { loadCliConfig, withLookupKnowledgeBase } = await queryPath();
    const config = await loadCliConfig(globalOptions());
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
    const config = await cliConfig();
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

program
  .command("eval")
  .description("measure the whole retriever on your questions: nDCG@10, R@5, MRR@10, answerable found, out-of-scope refused")
  .addHelpText(
    "after",
    examples("lookup-knowledge eval --questions my-questions.jsonl", "lookup-knowledge eval --questions my-questions.jsonl --json"),
  )
  .requiredOption(
    "--questions <file>",
    'JSON Lines, one {"id", "query", "relevant": ["path/of/answer.md"]} a line; relevant [] for out of scope',
  )
  .option("--json", "print the figures and every question's outcome as JSON")
  .action(async (options: { questions: string; json?: boolean }) => {
    const { runEvalCommand } = await import("./eval-command.js");
    const config = await cliConfig();
    console.log(await runEvalCommand(config, { questions: options.questions, json: options.json === true, warn }));
  });

program
  .command("calibrate")
  .description("fit the store's calibration on your questions, print the found/refused trade-off, and write it into the data folder")
  .addHelpText(
    "after",
    examples(
      "lookup-knowledge calibrate --questions my-questions.jsonl",
      "lookup-knowledge --data .my-docs calibrate --questions my-questions.jsonl",
    ),
  )
  .requiredOption(
    "--questions <file>",
    'JSON Lines, one {"id", "query", "relevant": ["path/of/answer.md"]} a line; relevant [] for out of scope',
  )
  .action(async (options: { questions: string }) => {
    const { runCalibrateCommand } = await import("./calibrate-command.js");
    const config = await cliConfig();
    console.log(await runCalibrateCommand(config, { questions: options.questions, warn }));
  });

const traces = program
  .command("traces")
  .description(
    "list recorded lookups, newest first (from the spool when it alone decides the list; else moves spooled records into the trace database first)",
  )
  .addHelpText("after", examples("lookup-knowledge traces --since 1h", "lookup-knowledge traces --no-evidence --limit 5 --json"))
  .option("--since <when>", "only lookups since an age ago (30m, 1h, 7d) or an ISO date")
  .option("--no-evidence", "only lookups that found no evidence")
  .addOption(new Option("--reason <reason>", "only lookups with this fallback reason").choices(fallbackReasons))
  .option("--query <text>", "only lookups whose query contains this text (the exact query when queries are stored as hashes)")
  .option("--limit <n>", "at most this many", "20")
  .option("--json", "print the records as JSON")
  .action(async (options: { since?: string; evidence: boolean; reason?: string; query?: string; limit: string; json?: boolean }) => {
    const { formatTraceTable, openCliTraceStore } = await import("./traces-command.js");
    const config = await cliConfig();
    const query = {
      ...(options.since ? { since: parseTimeOption("--since", options.since) } : {}),
      ...(options.evidence === false ? { found: false } : {}),
      ...(options.reason ? { fallbackReason: options.reason } : {}),
      ...(options.query ? { queryText: options.query } : {}),
      limit: parseCountOption("--limit", options.limit),
    };
    const store = openCliTraceStore(config);
    try {
      const records = await store.list(query);
      console.log(options.json ? terminalJson(records) : formatTraceTable(records));
    } finally {
      await store.close();
    }
  });

traces
  .command("prune")
  .description("delete recorded lookups older than an age (e.g. 30d) or an ISO date")
  .addHelpText("after", examples("lookup-knowledge traces prune --older-than 30d", "lookup-knowledge traces prune --older-than 2026-01-01"))
  .requiredOption("--older-than <age>", "e.g. 30d, 12h, or an ISO date")
  .action(async (options: { olderThan: string }) => {
    const { openCliTraceStore } = await import("./traces-command.js");
    const config = await cliConfig();
    const cutoff = parseTimeOption("--older-than", options.olderThan);
    const store = openCliTraceStore(config);
    try {
      const deleted = await store.prune(cutoff);
      console.log(
        printable(
          `Deleted ${deleted} recorded lookup${deleted === 1 ? "" : "s"} from before ${cutoff.toISOString()} (${store.databaseLocation}).`,
        ),
      );
    } finally {
      await store.close();
    }
  });

program
  .command("trace")
  .description("show one recorded lookup whole: hints, attempts, rerank, evidence and context pack")
  .addHelpText(
    "after",
    examples(
      "lookup-knowledge traces --limit 1",
      'lookup-knowledge trace "$(lookup-knowledge traces --limit 1 --json | node -p \'JSON.parse(require("fs").readFileSync(0))[0].id\')"',
    ),
  )
  .argument("<id>", "the id `lookup-knowledge traces` shows")
  .option("--json", "print the record as JSON")
  .action(async (id: string, options: { json?: boolean }) => {
    const { formatTraceDetails, openCliTraceStore } = await import("./traces-command.js");
    const config = await cliConfig();
    const store = openCliTraceStore(config);
    try {
      const record = await store.get(id);
      if (!record) {
        throw new CliError({
          code: "trace_not_found",
          message: `No recorded lookup has the id ${JSON.stringify(id)} (in ${store.databaseLocation}).`,
        });
      }
      console.log(options.json ? terminalJson(record) : formatTraceDetails(record));
    } finally {
      await store.close();
    }
  });

program
  .command("gaps")
  .description(
    "what people asked that the knowledge base did not answer: refused and low-relevance lookups grouped by topic, largest first",
  )
  .addHelpText("after", examples("lookup-knowledge gaps --since 7d", "lookup-knowledge gaps --export questions.jsonl"))
  .option("--since <when>", "only lookups since an age ago (30m, 1h, 7d) or an ISO date", "30d")
  .option("--json", "print the report as JSON")
  .option("--export <file>", "write the groups' example queries as a question file (eval, calibrate) with relevant []")
  .action(async (options: { since: string; json?: boolean; export?: string }) => {
    const { runGapsCommand } = await import("./gaps-command.js");
    console.log(await runGapsCommand(await cliConfig(), { ...options, warn }));
  });

program
  .command("stats")
  .description("what the knowledge base holds, and the metadata keys and values a --filter can name")
  .option("--json", "print one JSON object")
  .addHelpText("after", examples("lookup-knowledge stats", "lookup-knowledge --data .my-docs stats --json"))
  .action(async (options: { json?: boolean }) => {
    const { runStatsCommand } = await import("./stats-command.js");
    console.log(await runStatsCommand(await cliConfig(), warn, options));
  });

program
  .command("optimize")
  .description("merge the embedded index into one segment and drop deleted chunks (ingest merges small segments as it goes)")
  .option("--json", "print one JSON object")
  .addHelpText("after", examples("lookup-knowledge optimize", "lookup-knowledge --data .my-docs optimize --json"))
  .action(async (options: { json?: boolean }) => {
    const { runOptimizeCommand } = await import("./optimize-command.js");
    console.log(await runOptimizeCommand(await cliConfig(), options));
  });

program
  .command("mcp")
  .description("serve the knowledge base to MCP clients: on stdio (the default), or Streamable HTTP with --http")
  .addHelpText("after", `${mcpHelpText}${examples("lookup-knowledge mcp", "lookup-knowledge mcp --http --port 3333")}`)
  .option("--http", "serve Streamable HTTP (stateless) instead of stdio")
  .option("--host <address>", "with --http: the address to bind (default 127.0.0.1, this machine only)")
  .option("--port <n>", "with --http: the port (default 3333; 0 picks a free one)")
  .addOption(new Option("--token <token>").hideHelp())
  .action(async (options: McpCommandOptions) => {
    const { runMcpCommand } = await import("./mcp-command.js");
    await runMcpCommand(await cliConfig(), options, process.env, warn);
  });

program
  .command("inspect")
  .description("serve the inspector page: recorded lookups, one trace whole, a playground, calibration (this machine only by default)")
  .addHelpText("after", examples("lookup-knowledge inspect", "lookup-knowledge inspect --port 0"))
  .option("--host <address>", "the address to bind (default 127.0.0.1, this machine only)")
  .option("--port <n>", "the port (default 4555; 0 picks a free one)")
  .action(async (options: InspectCommandOptions) => {
    const { runInspectCommand } = await import("./inspect-command.js");
    await runInspectCommand(await cliConfig(), options, warn);
  });

/** The settings of this run: the global options over the settings file (`loadCliConfig`). */
async function cliConfig(): Promise<CliConfig> {
  const { loadCliConfig } = await import("./cli-config.js");
  return loadCliConfig(globalOptions());
}

function globalOptions(): { configFile?: string; dataDirectory?: string; store?: StoreFlags } {
  const options = program.opts<GlobalOptions>();
  const store: StoreFlags = {
    ...(options.store ? { kind: options.store } : {}),
    ...(options.index ? { index: options.index } : {}),
    ...(options.namespace ? { namespace: options.namespace } : {}),
    ...(options.host ? { host: options.host } : {}),
    ...(options.storeUrl ? { url: options.storeUrl } : {}),
  };
  return {
    ...(options.config ? { configFile: options.config } : {}),
    ...(options.data ? { dataDirectory: options.data } : {}),
    ...(Object.keys(store).length > 0 ? { store } : {}),
  };
}

/** A warning on stderr, one line, with control characters neutralised (it may quote a question or calibration file). */
function warn(message: string): void {
  console.error(`lookup-knowledge: warning: ${printable(redactSecrets(message))}`);
}

/** How a refused `--filter` is named: `--filter[0]` is the first one given. */
function filterOptionName(index: number): string {
  return `--filter[${index}]`;
}

/** The end of a command's help: commands a user can paste, one a line. */
function examples(...commands: string[]): string {
  return `\nExamples:\n${commands.map((command) => `  ${command}`).join("\n")}`;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

// What `query` loads its modules with: given by `runCommandLine` before the command line is parsed.
let queryPath: () => Promise<QueryPath> = () => Promise.reject(new Error("runCommandLine was not called"));

/** Runs the command the process's arguments name; `loadQueryPath` loads what a `query` runs (load-query-path.ts). */
export async function runCommandLine(loadQueryPath: () => Promise<QueryPath>): Promise<void> {
  queryPath = loadQueryPath;
  try {
    await program.parseAsync();
  } catch (error) {
    reportFailure(error);
  }
}

/** What a command that failed prints, and its exit code. */
function reportFailure(error: unknown): void {
  if (LookupKnowledgeError.isInstance(error)) {
    const hint = errorHints[error.code];
    const message = redactSecrets(cliErrorMessage(error));
    // The trace store has already printed this one (its flush failed the same way): only the hint is new.
    const said = reportedTraceStoreErrors.has(error.message) ? [] : [`lookup-knowledge: ${message.split("\n").map(printable).join("\n")}`];
    console.error([...said, ...(hint ? [hint] : [])].join("\n"));
    process.exitCode = 2;
  } else {
    // Not ours to explain: say what happened without a stack (DEBUG=lookup-knowledge shows it).
    console.error(
      `lookup-knowledge: unexpected error: ${printable(redactSecrets(error instanceof Error ? error.message : String(error)))}`,
    );
    if (process.env.DEBUG?.includes("lookup-knowledge")) console.error(error);
    process.exitCode = 1;
  }
}
