import { LookupKnowledgeError } from "@lookup-knowledge/core";

const marker = "lookup-knowledge.error.question-file";
const symbol = Symbol.for(marker);

/** A question file that cannot be read or has a bad line; the message names the file and line. */
export class QuestionFileError extends LookupKnowledgeError<"invalid_question_file"> {
  private readonly [symbol] = true;
  readonly file: string;
  /** The 1-based line, when one line is at fault. */
  readonly line: number | undefined;

  constructor(options: { file: string; line?: number; reason: string; cause?: unknown }) {
    super({
      code: "invalid_question_file",
      message: `${options.file}${options.line === undefined ? "" : ` line ${options.line}`}: ${options.reason}`,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.name = "QuestionFileError";
    this.file = options.file;
    this.line = options.line;
  }

  static override isInstance(error: unknown): error is QuestionFileError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}
