import { z } from "zod";
import { QuestionFileError } from "./question-file-error.js";

/** One question of a question file: what to ask, and which documents answer it (none: out of scope). */
export interface EvaluationQuestion {
  id: string;
  query: string;
  /** Document paths as ingested (`billing/refunds.md`, with or without `.md`); empty for an out-of-scope question. */
  relevant: string[];
  /** The 1-based line of the file it came from. */
  line: number;
}

const text = z.string().trim().min(1, { error: "must be a non-empty string" });
const questionLine = z
  .looseObject({
    id: z.union([text, z.number().int().transform(String)], { error: "id: expected a non-empty string" }),
    query: text.optional(),
    question: text.optional(),
    relevant: z.array(text, { error: "relevant: expected an array of document paths ([] for an out-of-scope question)" }),
  })
  .refine((value) => value.query !== undefined || value.question !== undefined, {
    error: "query: expected a non-empty string (or question)",
  });

/** The most questions a file may hold, so a wrong file fails fast. */
export const maxQuestions = 10_000;

/**
 * Parses the text of a question file: JSON Lines, one `{"id", "query", "relevant": [...]}` a
 * line (`question` is taken for `query`), blank lines and a leading byte-order mark skipped.
 * A line that is not JSON or lacks a field, a `relevant` that is not an array of strings, a
 * repeated id, more than `maxQuestions` questions, or no question at all is a
 * `QuestionFileError` whose message starts with `sourceName` and the 1-based line
 * (`questions.jsonl line 3: relevant: ...`). No file is read: `sourceName` only names the text.
 */
export function parseQuestionFile(content: string, sourceName: string): EvaluationQuestion[] {
  const file = sourceName;
  if (typeof content !== "string") throw new QuestionFileError({ file, reason: "the question file's text is not a string" });
  const questions: EvaluationQuestion[] = [];
  const lines = new Map<string, number>();
  for (const [index, raw] of content
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .entries()) {
    const line = index + 1;
    if (raw.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new QuestionFileError({
        file,
        line,
        reason: 'not a JSON object (expected one {"id": ..., "query": ..., "relevant": [...]} a line)',
      });
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new QuestionFileError({
        file,
        line,
        reason: 'not a JSON object (expected one {"id": ..., "query": ..., "relevant": [...]} a line)',
      });
    }
    const parsed = questionLine.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path[0];
      const message = issue?.message ?? "invalid";
      const reason = typeof field === "string" && !message.startsWith(`${field}:`) ? `${field}: ${message}` : message;
      throw new QuestionFileError({ file, line, reason });
    }
    const { id, query, question, relevant } = parsed.data;
    const earlier = lines.get(id);
    if (earlier !== undefined)
      throw new QuestionFileError({ file, line, reason: `id ${JSON.stringify(id)} was already used on line ${earlier}` });
    lines.set(id, line);
    questions.push({ id, query: (query ?? question) as string, relevant: [...new Set(relevant)], line });
    if (questions.length > maxQuestions) throw new QuestionFileError({ file, line, reason: `more than ${maxQuestions} questions` });
  }
  if (questions.length === 0) throw new QuestionFileError({ file, reason: "holds no questions" });
  return questions;
}
