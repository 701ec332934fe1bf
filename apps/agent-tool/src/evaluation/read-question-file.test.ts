import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { QuestionFileError } from "./question-file-error.js";
import { readQuestionFile } from "./read-question-file.js";
import { sourceKey } from "./source-key.js";

async function file(text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), "question-file-")), "questions.jsonl");
  await writeFile(path, text);
  return path;
}

describe("readQuestionFile", () => {
  it("reads JSONL with query or question, skips blank lines, and keeps each question's line", async () => {
    const questions = await readQuestionFile(
      await file(
        '{"id":"a","query":"Who refunds?","relevant":["billing/refunds.md"]}\n\n{"id":"b","question":"Who paints?","relevant":[],"language":"en"}\r\n',
      ),
    );
    expect(questions).toEqual([
      { id: "a", query: "Who refunds?", relevant: ["billing/refunds.md"], line: 1 },
      { id: "b", query: "Who paints?", relevant: [], line: 3 },
    ]);
  });

  it("refuses an empty file and a relevant list of non-strings with a QuestionFileError naming file and line", async () => {
    await expect(readQuestionFile(await file("\n\n"))).rejects.toThrow(/questions\.jsonl: holds no questions/);
    const error = await readQuestionFile(await file('{"id":"a","query":"q","relevant":[1]}')).catch((caught: unknown) => caught);
    expect(QuestionFileError.isInstance(error)).toBe(true);
    expect((error as QuestionFileError).line).toBe(1);
    expect((error as Error).message).toMatch(/questions\.jsonl line 1: relevant/);
  });

  it("compares relevant paths and sources with or without .md, ./ and backslashes", () => {
    expect(sourceKey("billing/refunds.md")).toBe("billing/refunds");
    expect(sourceKey("./billing\\refunds")).toBe("billing/refunds");
    expect(sourceKey("guide.mdx")).toBe("guide");
  });
});
