import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultAnswerabilityModel } from "@lookup-knowledge/search-port/local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeQuestionFile } from "./test/question-files.js";
import { exampleKnowledgeBase, runLookupKnowledge as lookupKnowledge } from "./test/run-lookup-knowledge.js";

interface EvalJson {
  store: string;
  referenceThreshold: number;
  calibration: unknown;
  scores: { ndcg10: number; recall5: number; mrr10: number };
  answerable: { asked: number; found: number };
  outOfScope: { asked: number; refused: number };
  questions: Array<{
    id: string;
    query: string;
    answerable: boolean;
    found: boolean;
    topScore?: number;
    answerability?: { model: string; signals: Record<string, number> };
    sources: string[];
    relevantFound: boolean;
    firstRelevantRank: number | null;
  }>;
}

// The real command over the example knowledge base, on the local index and on a libSQL file.
describe("lookup-knowledge eval", () => {
  let cwd: string;
  let questions: string;
  const libsql = () => ["--store", "libsql", "--store-url", `file:${join(cwd, "knowledge.db")}`];
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-eval-"));
    questions = await writeQuestionFile(cwd, "questions.jsonl");
    expect((await lookupKnowledge(cwd, "ingest", "--no-progress", exampleKnowledgeBase)).code).toBe(0);
    expect((await lookupKnowledge(cwd, ...libsql(), "ingest", "--no-progress", exampleKnowledgeBase)).code).toBe(0);
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it("prints nDCG@10, R@5, MRR@10 and the found and refused counts of the whole retriever on the local index", async () => {
    const { code, stdout, stderr } = await lookupKnowledge(cwd, "eval", "--questions", questions);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(/Evaluated 13 questions of .*questions\.jsonl on the local index/);
    expect(stdout).toMatch(/nDCG@10 [01]\.\d{3} {3}R@5 [01]\.\d{3} {3}MRR@10 [01]\.\d{3} {3}\(over 8 answerable questions\)/);
    expect(stdout).toMatch(/answerable found +\d\/8 \(\d+%\)/);
    expect(stdout).toMatch(/out-of-scope refused +\d\/5 \(\d+%\)/);
    expect(stdout).toMatch(/calibration +none \(the defaults\)/);
  });

  it("--json lists every question: found, top score, the port's signals, ranked sources and the first relevant rank", async () => {
    const { code, stdout } = await lookupKnowledge(cwd, "eval", "--questions", questions, "--json");
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as EvalJson;
    expect(report.questions.map((question) => question.id)).toHaveLength(13);
    expect(report.answerable.asked).toBe(8);
    expect(report.outOfScope.asked).toBe(5);
    // The local index's model names its own operating point; the settings set none.
    expect(report.referenceThreshold).toBe(defaultAnswerabilityModel.referenceThreshold);
    const refund = report.questions.find((question) => question.id === "refund-1");
    expect(refund).toMatchObject({ answerable: true, found: true, relevantFound: true, firstRelevantRank: 1 });
    expect(refund?.sources[0]).toBe("billing/refunds.md");
    expect(refund?.answerability?.model).toMatch(/^answerability-logistic@\d+$/);
    expect(Object.keys(refund?.answerability?.signals ?? {})).toContain("coverage");
    // `relevant` without .md matches the source, and `question` is read as the query.
    expect(report.questions.find((question) => question.id === "refund-2")?.firstRelevantRank).not.toBeNull();
    expect(report.questions.find((question) => question.id === "credit-1")?.query).toMatch(/discount on an invoice/);
    // The figures agree with the list.
    const answerable = report.questions.filter((question) => question.answerable);
    expect(report.answerable.found).toBe(answerable.filter((question) => question.found).length);
    expect(report.outOfScope.refused).toBe(report.questions.filter((question) => !question.answerable && !question.found).length);
    const mrr =
      answerable.reduce((sum, question) => sum + (question.firstRelevantRank ? 1 / question.firstRelevantRank : 0), 0) / answerable.length;
    expect(report.scores.mrr10).toBeCloseTo(mrr);
    expect(report.questions.find((question) => question.id === "oos-1")).toMatchObject({
      found: false,
      sources: [],
      firstRelevantRank: null,
    });
  });

  it("R13: works the same on a libSQL store, whose plain scores carry no answerability signals", async () => {
    const { code, stdout } = await lookupKnowledge(cwd, ...libsql(), "eval", "--questions", questions, "--json");
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as EvalJson;
    expect(report.store).toMatch(/^libsql file:.*knowledge\.db, table vectors$/);
    expect(report.answerable.asked).toBe(8);
    expect(report.questions.find((question) => question.id === "refund-1")).toMatchObject({ found: true, firstRelevantRank: 1 });
    expect(report.questions.every((question) => question.answerability === undefined)).toBe(true);
  });

  it("warns about a relevant path that names no document of the knowledge base", async () => {
    const file = await writeQuestionFile(cwd, "typo.jsonl", [
      { id: "t1", query: "Who can issue a refund?", relevant: ["billing/refundz.md"] },
    ]);
    const { code, stderr } = await lookupKnowledge(cwd, "eval", "--questions", file);
    expect(code).toBe(0);
    expect(stderr).toMatch(/warning: .*typo\.jsonl line 1: relevant "billing\/refundz\.md" is not a document of this knowledge base/);
  });

  it.each([
    ["not JSON Lines", ['{"id":"a","query":"Who can refund?","relevant":[]}', "id,query,relevant"], /bad\.jsonl line 2: not a JSON object/],
    ["a missing query", ['{"id":"a","relevant":[]}'], /bad\.jsonl line 1: query: expected a non-empty string/],
    ["a missing id", ['{"query":"Who can refund?","relevant":[]}'], /bad\.jsonl line 1: id: expected a non-empty string/],
    [
      "relevant not an array",
      ['{"id":"a","query":"Who can refund?","relevant":"billing/refunds.md"}'],
      /bad\.jsonl line 1: relevant: expected an array of document paths/,
    ],
    [
      "a repeated id",
      ['{"id":"a","query":"q1","relevant":[]}', "", '{"id":"a","query":"q2","relevant":[]}'],
      /bad\.jsonl line 3: id "a" was already used on line 1/,
    ],
  ])("refuses a question file with %s in one line naming the file and line, and exits 2", async (_name, lines, message) => {
    const file = await writeQuestionFile(cwd, "bad.jsonl", lines);
    for (const command of ["eval", "calibrate"]) {
      const { code, stderr, stdout } = await lookupKnowledge(cwd, command, "--questions", file);
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toMatch(message);
      expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    }
  });

  it("refuses an unknown question file in one line, and neutralises control characters a question file brings", async () => {
    const missing = await lookupKnowledge(cwd, "eval", "--questions", join(cwd, "missing.jsonl"));
    expect(missing.code).toBe(2);
    expect(missing.stderr.trimEnd()).toMatch(/^lookup-knowledge: .*missing\.jsonl: no such question file$/);
    const hostile = await writeQuestionFile(cwd, "hostile.jsonl", [
      { id: "x\u001b]0;pwned\u0007\u009b31m", query: "q", relevant: [] },
      { id: "x\u001b]0;pwned\u0007\u009b31m", query: "q", relevant: [] },
    ]);
    const { code, stderr } = await lookupKnowledge(cwd, "eval", "--questions", hostile);
    expect(code).toBe(2);
    expect(stderr).toMatch(/hostile\.jsonl line 2: id .* was already used on line 1/);
    expect(stderr).not.toMatch(/[\u001b\u0007\u009b]/);
  });
});
