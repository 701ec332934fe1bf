import { fallbackReasons } from "@lookup-knowledge/core";
import { printable } from "@lookup-knowledge/agent-tool/format";
import { Option } from "commander";
import { CliError } from "./cli-error.js";
import { examples, warn } from "./command-line-helpers.js";
import { parseCountOption, parseTimeOption } from "./parse-time-option.js";
import { terminalJson } from "./terminal-json.js";
import type { Command } from "commander";
import type { CommandLineContext } from "./command-line-context.js";

/**
 * `gaps --since` when none is given (shown in its help): the trace store's own default
 * (`defaultGapsSince` of @lookup-knowledge/trace-store), written here so that the command line
 * loads no trace store before a command runs; trace-commands.test.ts checks that they agree.
 */
export const defaultGapsSince = "30d";

/** Adds `traces` (and `traces prune`), `trace` and `gaps`: the recorded lookups. */
export function addTraceCommands(program: Command, context: CommandLineContext): void {
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
      const config = await context.cliConfig();
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
    .addHelpText(
      "after",
      examples("lookup-knowledge traces prune --older-than 30d", "lookup-knowledge traces prune --older-than 2026-01-01"),
    )
    .requiredOption("--older-than <age>", "e.g. 30d, 12h, or an ISO date")
    .action(async (options: { olderThan: string }) => {
      const { openCliTraceStore } = await import("./traces-command.js");
      const config = await context.cliConfig();
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
      const config = await context.cliConfig();
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
    .option("--since <when>", "only lookups since an age ago (30m, 1h, 7d) or an ISO date", defaultGapsSince)
    .option("--json", "print the report as JSON")
    .option("--export <file>", "write the groups' example queries as a question file (eval, calibrate) with relevant []")
    .action(async (options: { since: string; json?: boolean; export?: string }) => {
      const { runGapsCommand } = await import("./gaps-command.js");
      console.log(await runGapsCommand(await context.cliConfig(), { ...options, warn }));
    });
}
