import { printable } from "@lookup-knowledge/agent-tool/format";
import { redactSecrets } from "./redact-secrets.js";

// The small helpers the command groups (`*-commands.ts`) share.

/** A warning on stderr, one line, with control characters neutralised (it may quote a question or calibration file). */
export function warn(message: string): void {
  console.error(`lookup-knowledge: warning: ${printable(redactSecrets(message))}`);
}

/** How a refused `--filter` is named: `--filter[0]` is the first one given. */
export function filterOptionName(index: number): string {
  return `--filter[${index}]`;
}

/** The end of a command's help: commands a user can paste, one a line. */
export function examples(...commands: string[]): string {
  return `\nExamples:\n${commands.map((command) => `  ${command}`).join("\n")}`;
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
