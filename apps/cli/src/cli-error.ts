import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { CliErrorCode } from "./cli-error-code.js";

const marker = "lookup-knowledge.error.cli";
const symbol = Symbol.for(marker);

/** An error of the command itself (a bad settings file or option, a trace that is not there): printed as one line, exit code 2. */
export class CliError extends LookupKnowledgeError<CliErrorCode> {
  private readonly [symbol] = true;

  constructor(options: { code: CliErrorCode; message: string; cause?: unknown }) {
    super(options);
    this.name = "CliError";
  }

  static override isInstance(error: unknown): error is CliError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}
