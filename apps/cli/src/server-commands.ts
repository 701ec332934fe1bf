import { Option } from "commander";
import type { InspectCommandOptions } from "./inspect-command.js";
import type { McpCommandOptions } from "./mcp-command.js";
import { mcpHelpText } from "./mcp-command-help.js";
import { examples, warn } from "./command-line-helpers.js";
import type { Command } from "commander";
import type { CommandLineContext } from "./command-line-context.js";

/** Adds `mcp` and `inspect`: the servers. */
export function addServerCommands(program: Command, context: CommandLineContext): void {
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
      await runMcpCommand(await context.cliConfig(), options, process.env, warn);
    });

  program
    .command("inspect")
    .description("serve the inspector page: recorded lookups, one trace whole, a playground, calibration (this machine only by default)")
    .addHelpText("after", examples("lookup-knowledge inspect", "lookup-knowledge inspect --port 0"))
    .option("--host <address>", "the address to bind (default 127.0.0.1, this machine only)")
    .option("--port <n>", "the port (default 4555; 0 picks a free one)")
    .action(async (options: InspectCommandOptions) => {
      const { runInspectCommand } = await import("./inspect-command.js");
      await runInspectCommand(await context.cliConfig(), options, warn);
    });
}
