import { describe, expect, it } from "vitest";
import { parseQuestionFile } from "./index.js";
import { QuestionFileError } from "./question-file-error.js";

function refusal(text: string, sourceName = "posted questions"): QuestionFileError {
  try {
    parseQuestionFile(text, sourceName);
  } catch (error) {
    if (QuestionFileError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("the text was accepted");
}

describe("parseQuestionFile", () => {
  it("issue 13 review: parses question-file text without a file: query or question, blank lines and a BOM skipped, each question's line kept", () => {
    const questions = parseQuestionFile(
      '\uFEFF{"id":"a","query":"Who refunds?","relevant":["billing/refunds.md","billing/refunds.md"]}\n\n{"id":7,"question":"Who paints?","relevant":[]}\r\n',
      "questions.jsonl",
    );
    expect(questions).toEqual([
      { id: "a", query: "Who refunds?", relevant: ["billing/refunds.md"], line: 1 },
      { id: "7", query: "Who paints?", relevant: [], line: 3 },
    ]);
  });

  it("issue 13 review: a bad line is a QuestionFileError naming the source and the line, and what was wrong", () => {
    const good = '{"id":"a","query":"Who refunds?","relevant":[]}';
    expect(refusal(`${good}\n{"id":"b","query":"x","relevant":"billing"}`).message).toBe(
      "posted questions line 2: relevant: expected an array of document paths ([] for an out-of-scope question)",
    );
    const notJson = refusal(`${good}\n\nnot json`, "the question file");
    expect(notJson).toMatchObject({ code: "invalid_question_file", file: "the question file", line: 3 });
    expect(notJson.message).toMatch(/^the question file line 3: not a JSON object/);
    expect(refusal(`${good}\n${good}`).message).toBe('posted questions line 2: id "a" was already used on line 1');
    expect(refusal('{"id":"a","relevant":[]}').message).toBe("posted questions line 1: query: expected a non-empty string (or question)");
    expect(refusal("\n  \n").message).toBe("posted questions: holds no questions");
    expect(refusal(42 as unknown as string).message).toBe("posted questions: the question file's text is not a string");
  });
});
