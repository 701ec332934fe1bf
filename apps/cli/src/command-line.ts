import { readFileSync } from "node:fs";
import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { Command, Option } from "commander";
import { printable } from "@lookup-knowledge/agent-tool/format";
import { storeKinds } from "@lookup-knowledge/agent-tool/store-settings";
import type { CliConfig, StoreFlags } from "./cli-config.js";
import { cliErrorMessage } from "./cli-error-message.js";
import { redactSecrets } from "./redact-secrets.js";
import { errorHints, withGlobalOptionHint } from "./cli-hints.js";
import type { CommandLineContext } from "./command-line-context.js";
import { examples } from "./command-line-helpers.js";
import { addEvaluationCommands } from "./evaluation-commands.js";
import { addKnowledgeBaseCommands } from "./knowledge-base-commands.js";
import { addLookupCommands } from "./lookup-commands.js";
import { reportedTraceStoreErrors } from "./reported-trace-store-errors.js";
import { addServerCommands } from "./server-commands.js";
import { addTraceCommands } from "./trace-commands.js";
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

// The commands, by concern, in the order `--help` lists them.
const context: CommandLineContext = { cliConfig, globalOptions, queryPath: () => queryPath() };
addLookupCommands(program, context);
addEvaluationCommands(program, context);
addTraceCommands(program, context);
addKnowledgeBaseCommands(program, context);
addServerCommands(program, context);

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
