import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { datasetsDirectory as datasets, needsDatasets, skipWithoutDatasets } from "@lookup-knowledge/vitest-config";
import { describe, expect, it } from "vitest";
import { readExampleQuestions, readQuestionSet } from "./question-set.js";

const questions = fileURLToPath(new URL("../questions/", import.meta.url));
const examples = fileURLToPath(new URL("../../../examples/knowledge-base/", import.meta.url));

describe("the evaluation question sets", () => {
  it.skipIf(skipWithoutDatasets).each([
    ["apisix-en.jsonl", join("apisix-docs", "docs", "en", "latest"), 60],
    ["apisix-zh.jsonl", join("apisix-docs", "docs", "zh", "latest"), 40],
    ["tidb-zh.jsonl", "tidb-docs-cn", 66],
  ] as const)(needsDatasets("%s: unique ids, and every relevant file exists in %s"), async (file, tree, count) => {
    const set = await readQuestionSet(join(questions, file));
    expect(set).toHaveLength(count);
    expect(new Set(set.map((question) => question.id)).size).toBe(set.length);
    for (const question of set) {
      expect(question.relevant.length).toBeGreaterThan(0);
      for (const relevant of question.relevant) {
        expect(existsSync(join(datasets, tree, relevant)), `${question.id}: ${relevant}`).toBe(true);
      }
    }
  });

  it("the TiDB near-domain questions have no relevant file, are Chinese, and have unique ids", async () => {
    const set = await readQuestionSet(join(questions, "tidb-zh-out-of-scope.jsonl"));
    expect(set).toHaveLength(27);
    expect(new Set(set.map((question) => question.id)).size).toBe(set.length);
    for (const question of set) {
      expect(question.relevant).toEqual([]);
      expect(question.language).toBe("zh");
    }
  });

  it("out-of-scope questions have no relevant file and a language", async () => {
    const set = await readQuestionSet(join(questions, "out-of-scope.jsonl"));
    expect(set).toHaveLength(40);
    for (const question of set) {
      expect(question.relevant).toEqual([]);
      expect(["en", "zh"]).toContain(question.language);
    }
  });

  it("the example knowledge base's questions point at files that exist", async () => {
    const set = await readExampleQuestions(join(examples, "questions.json"));
    expect(set.length).toBeGreaterThanOrEqual(40);
    expect(set.some((question) => question.relevant.length === 0)).toBe(true);
    for (const question of set) for (const relevant of question.relevant) expect(existsSync(join(examples, relevant)), relevant).toBe(true);
  });

  it("refuses a malformed line with the file and line number", async () => {
    const { mkdtemp, writeFile } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const file = join(await mkdtemp(join(tmpdir(), "questions-")), "bad.jsonl");
    await writeFile(file, '{"id":"a","question":"q","relevant":[]}\n{"id":"b","relevant":[]}\n');
    await expect(readQuestionSet(file)).rejects.toThrow(/bad\.jsonl line 2/);
  });
});
