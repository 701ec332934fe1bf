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
    ["shardingsphere-en.jsonl", join("shardingsphere-docs", "en"), 44],
    ["shardingsphere-zh.jsonl", join("shardingsphere-docs", "zh"), 44],
    ["sourcegraph-handbook.jsonl", "sourcegraph-handbook", 44],
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

  it.each([
    ["shardingsphere-en.jsonl", 12],
    ["shardingsphere-zh.jsonl", 12],
    ["sourcegraph-handbook.jsonl", 12],
  ] as const)("%s has at least 40 answerable questions, %i of them paraphrases, split over both halves", async (file, paraphrases) => {
    const set = await readQuestionSet(join(questions, file));
    expect(set.length).toBeGreaterThanOrEqual(40);
    const marked = set.filter((question) => question.paraphrase === true);
    expect(marked.length).toBeGreaterThanOrEqual(paraphrases);
    expect(marked.some((question) => /[13579]$/.test(question.id))).toBe(true);
    expect(marked.some((question) => /[02468]$/.test(question.id))).toBe(true);
  });

  it.each([
    ["shardingsphere-out-of-scope.jsonl", ["en", "zh"], 30],
    ["sourcegraph-handbook-out-of-scope.jsonl", ["en"], 15],
  ] as const)("%s: near-domain questions without a relevant file, 15 per language, unique ids", async (file, languages, count) => {
    const set = await readQuestionSet(join(questions, file));
    expect(set).toHaveLength(count);
    expect(new Set(set.map((question) => question.id)).size).toBe(set.length);
    for (const language of languages) expect(set.filter((question) => question.language === language)).toHaveLength(15);
    for (const question of set) expect(question.relevant).toEqual([]);
  });

  it("reads the paraphrase mark and refuses one that is not true or false", async () => {
    const { mkdtemp, writeFile } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const file = join(await mkdtemp(join(tmpdir(), "questions-")), "marked.jsonl");
    await writeFile(
      file,
      '{"id":"a-1","question":"q","relevant":["x.md"],"paraphrase":true}\n{"id":"a-2","question":"q","relevant":["x.md"]}\n',
    );
    const [marked, plain] = await readQuestionSet(file);
    expect(marked?.paraphrase).toBe(true);
    expect(plain?.paraphrase).toBeUndefined();
    await writeFile(file, '{"id":"a-1","question":"q","relevant":["x.md"],"paraphrase":"yes"}\n');
    await expect(readQuestionSet(file)).rejects.toThrow(/marked\.jsonl line 1/);
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
