import type { CliConfig, StoreFlags } from "./cli-config.js";
import type { QueryPath } from "./load-query-path.js";

/** What the command groups (`*-commands.ts`) take from the command line they are added to (command-line.ts). */
export interface CommandLineContext {
  /** The settings of this run: the global options over the settings file (`loadCliConfig`). */
  cliConfig(): Promise<CliConfig>;
  /** The global options given before the command. */
  globalOptions(): { configFile?: string; dataDirectory?: string; store?: StoreFlags };
  /** What `query` loads its modules with: given by `runCommandLine` before the command line is parsed. */
  queryPath(): Promise<QueryPath>;
}
