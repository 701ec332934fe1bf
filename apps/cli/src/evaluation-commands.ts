import { examples, warn } from "./command-line-helpers.js";
import type { Command } from "commander";
import type { CommandLineContext } from "./command-line-context.js";

/** Adds `eval` and `calibrate`: measure the retriever on a question file, and fit its calibration. */
export function addEvaluationCommands(program: Command, context: CommandLineContext): void {
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
      const config = await context.cliConfig();
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
      const config = await context.cliConfig();
      console.log(await runCalibrateCommand(config, { questions: options.questions, warn }));
    });
}
