import { examples, warn } from "./command-line-helpers.js";
import type { Command } from "commander";
import type { CommandLineContext } from "./command-line-context.js";

/** Adds `stats` and `optimize`: what the knowledge base holds, and merging its index. */
export function addKnowledgeBaseCommands(program: Command, context: CommandLineContext): void {
  program
    .command("stats")
    .description("what the knowledge base holds, and the metadata keys and values a --filter can name")
    .option("--json", "print one JSON object")
    .addHelpText("after", examples("lookup-knowledge stats", "lookup-knowledge --data .my-docs stats --json"))
    .action(async (options: { json?: boolean }) => {
      const { runStatsCommand } = await import("./stats-command.js");
      console.log(await runStatsCommand(await context.cliConfig(), warn, options));
    });

  program
    .command("optimize")
    .description("merge the embedded index into one segment and drop deleted chunks (ingest merges small segments as it goes)")
    .option("--json", "print one JSON object")
    .addHelpText("after", examples("lookup-knowledge optimize", "lookup-knowledge --data .my-docs optimize --json"))
    .action(async (options: { json?: boolean }) => {
      const { runOptimizeCommand } = await import("./optimize-command.js");
      console.log(await runOptimizeCommand(await context.cliConfig(), options));
    });
}
