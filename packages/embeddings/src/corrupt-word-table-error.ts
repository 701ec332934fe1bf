import { LookupKnowledgeError } from "@lookup-knowledge/core";

const marker = "lookup-knowledge.error.corrupt-word-table";
const symbol = Symbol.for(marker);

/**
 * A file of the word table is missing, unreadable, malformed, or does not match the SHA-256
 * recorded in `word-table.json`. `file` is the path of the offending file. Reinstalling the
 * package (or rebuilding the table, see the README) is the fix; retrying is not.
 */
export class CorruptWordTableError extends LookupKnowledgeError<"corrupt_word_table"> {
  private readonly [symbol] = true;
  readonly file: string;

  constructor(options: { file: string; reason: string; cause?: unknown }) {
    super({
      code: "corrupt_word_table",
      message: `Corrupt word table file ${options.file}: ${options.reason}`,
      cause: options.cause,
    });
    this.name = "CorruptWordTableError";
    this.file = options.file;
  }

  static override isInstance(error: unknown): error is CorruptWordTableError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}
