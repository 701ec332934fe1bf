import { readFile } from "node:fs/promises";
import { parseQuestionFile, type EvaluationQuestion } from "./parse-question-file.js";
import { QuestionFileError } from "./question-file-error.js";

export { maxQuestions } from "./parse-question-file.js";
export type { EvaluationQuestion } from "./parse-question-file.js";

/**
 * Reads a question file: JSON Lines, one `{"id", "query", "relevant": [...]}` a line
 * (`question` is taken for `query`), blank lines skipped. A file that cannot be read, a line
 * that is not JSON or lacks a field, a `relevant` that is not an array of strings, a
 * repeated id, or no question at all is a `QuestionFileError` naming the file and line.
 * The text is checked by `parseQuestionFile`.
 */
export async function readQuestionFile(file: string): Promise<EvaluationQuestion[]> {
  let content: string;
  try {
    content = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "no such question file"
        : code === "EISDIR"
          ? "is a folder, not a question file"
          : `cannot read the question file (${code ?? (error as Error).message})`;
    throw new QuestionFileError({ file, reason, cause: error });
  }
  return parseQuestionFile(content, file);
}
