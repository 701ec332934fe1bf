import { readFile } from "node:fs/promises";
import { z } from "zod";

export interface Question {
  id: string;
  question: string;
  language?: string | undefined;
  /** Files (relative to the knowledge base root) that answer it; empty for out-of-scope questions. */
  relevant: string[];
  /** Written in other words than the answering page's, with little word overlap. */
  paraphrase?: boolean | undefined;
}

const questionLine = z.object({
  id: z.string().min(1),
  question: z.string().min(1),
  language: z.string().optional(),
  relevant: z.array(z.string().min(1)),
  paraphrase: z.boolean().optional(),
});

/** Reads a JSONL question set; a bad line is an error naming the file and line. */
export async function readQuestionSet(file: string): Promise<Question[]> {
  const questions: Question[] = [];
  for (const [index, line] of (await readFile(file, "utf8")).split("\n").entries()) {
    if (line.trim() === "") continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      throw new Error(`${file} line ${index + 1}: ${(error as Error).message}`);
    }
    const parsed = questionLine.safeParse(raw);
    if (!parsed.success) throw new Error(`${file} line ${index + 1}: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    const { language, paraphrase, ...rest } = parsed.data;
    questions.push({ ...rest, ...(language === undefined ? {} : { language }), ...(paraphrase ? { paraphrase } : {}) });
  }
  return questions;
}

const exampleQuestions = z.array(
  z.object({ question: z.string().min(1), language: z.string().optional(), relevant: z.array(z.string().min(1)) }),
);

/** Reads `examples/knowledge-base/questions.json` (a JSON array without ids); ids are given by position. */
export async function readExampleQuestions(file: string): Promise<Question[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
  const parsed = exampleQuestions.safeParse(raw);
  if (!parsed.success)
    throw new Error(`${file}: ${parsed.error.issues[0]?.message ?? "invalid"} at ${parsed.error.issues[0]?.path.join(".")}`);
  return parsed.data.map((question, index) => ({
    id: `example-${index + 1}`,
    question: question.question,
    relevant: question.relevant,
    ...(question.language === undefined ? {} : { language: question.language }),
  }));
}
