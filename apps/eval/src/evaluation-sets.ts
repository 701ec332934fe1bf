import { existsSync } from "node:fs";
import { join } from "node:path";
import type { KnowledgeEntry } from "@lookup-knowledge/core";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import type { KnowledgeRecord } from "@lookup-knowledge/search-port";
import { openLocalSearchPort } from "@lookup-knowledge/search-port/local";
import { readBeirCollection } from "./beir-collection.js";
import { datasetsDirectory, ingestKnowledgeBase, questionsDirectory, examplesDirectory } from "./knowledge-bases.js";
import type { Judgments } from "@lookup-knowledge/agent-tool/evaluation";
import { readExampleQuestions, readQuestionSet, type Question } from "./question-set.js";
import { splitOf, type Split } from "./split.js";

/** One question of an evaluation set, with what answers it (nothing for an out-of-scope one). */
export interface EvaluationQuestion {
  id: string;
  text: string;
  judgments: Judgments;
  split: Split;
  /** Written in other words than the answering page's (answerable questions only). */
  paraphrase?: boolean;
}

/** A knowledge base built into a local index, with its questions. */
export interface EvaluationSet {
  name: string;
  /** `collection`: a test collection, one record per document; `docs`: an ingested Markdown tree. */
  kind: "collection" | "docs";
  directory: string;
  /** The same files, one record per file (whole-file BM25); a collection's records are whole documents already. */
  wholeFileDirectory: string;
  /** The L0 entries of an ingested tree. */
  entries?: KnowledgeEntry[];
  answerable: EvaluationQuestion[];
  /** Near-domain questions the knowledge base does not answer, written by hand. */
  outOfScope: EvaluationQuestion[];
}

/**
 * Questions of one set asked of another: the easy out-of-scope material that nobody
 * picked by hand. Each pair is asked both ways where the languages allow it.
 */
export const crossCollectionPairs: ReadonlyArray<readonly [asked: string, of: string]> = [
  ["scifact", "cranfield"],
  ["cranfield", "scifact"],
  ["apisix-en", "tidb-zh"],
  ["apisix-zh", "tidb-zh"],
  ["tidb-zh", "apisix-zh"],
  ["tidb-zh", "apisix-en"],
  ["sourcegraph-handbook", "shardingsphere-en"],
  ["shardingsphere-en", "sourcegraph-handbook"],
  ["shardingsphere-zh", "apisix-zh"],
  ["apisix-zh", "shardingsphere-zh"],
];

/** Every set's name, in the order `pnpm eval` prints them. */
export const setNames = [
  "scifact",
  "cranfield",
  "apisix-en",
  "apisix-zh",
  "tidb-zh",
  "shardingsphere-en",
  "shardingsphere-zh",
  "sourcegraph-handbook",
  "examples",
] as const;

/** The Markdown sets: the tree under the datasets folder and the question files (answerable, then near-domain). */
const docsSets: Record<string, { tree: string[]; files: string[]; language?: string }> = {
  "apisix-en": { tree: ["apisix-docs", "docs", "en", "latest"], files: ["apisix-en.jsonl", "out-of-scope.jsonl"], language: "en" },
  "apisix-zh": { tree: ["apisix-docs", "docs", "zh", "latest"], files: ["apisix-zh.jsonl", "out-of-scope.jsonl"], language: "zh" },
  "tidb-zh": { tree: ["tidb-docs-cn"], files: ["tidb-zh.jsonl", "tidb-zh-out-of-scope.jsonl"] },
  "shardingsphere-en": {
    tree: ["shardingsphere-docs", "en"],
    files: ["shardingsphere-en.jsonl", "shardingsphere-out-of-scope.jsonl"],
    language: "en",
  },
  "shardingsphere-zh": {
    tree: ["shardingsphere-docs", "zh"],
    files: ["shardingsphere-zh.jsonl", "shardingsphere-out-of-scope.jsonl"],
    language: "zh",
  },
  "sourcegraph-handbook": {
    tree: ["sourcegraph-handbook"],
    files: ["sourcegraph-handbook.jsonl", "sourcegraph-handbook-out-of-scope.jsonl"],
  },
};

/**
 * Builds the named sets into `workspace` (one index folder each) and reads their
 * questions. A set whose question file is missing is skipped with a note on stderr.
 */
export async function buildEvaluationSets(workspace: string, names: ReadonlySet<string>): Promise<EvaluationSet[]> {
  const sets: EvaluationSet[] = [];
  for (const name of setNames) {
    if (!names.has(name)) continue;
    const started = performance.now();
    const set = await buildSet(name, join(workspace, name));
    if (set === undefined) continue;
    console.error(`${name}: built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    sets.push(set);
  }
  return sets;
}

async function buildSet(name: (typeof setNames)[number], dataDirectory: string): Promise<EvaluationSet | undefined> {
  if (name === "scifact" || name === "cranfield") {
    const collection = await readBeirCollection(join(datasetsDirectory, name), name);
    const directory = join(dataDirectory, "index");
    await writeCollection(collection.documents, directory);
    const answerable = collection.queries.map((query) => ({
      id: query.id,
      text: query.text,
      judgments: query.judgments,
      split: splitOf(query),
    }));
    return { name, kind: "collection", directory, wholeFileDirectory: directory, answerable, outOfScope: [] };
  }
  if (name === "examples") {
    const questions = await readExampleQuestions(join(examplesDirectory, "questions.json"));
    return docsSet(name, examplesDirectory, dataDirectory, questions);
  }
  const { tree, files, language } = docsSets[name] as (typeof docsSets)[string];
  const root = join(datasetsDirectory, ...tree);
  const missing = [root, ...files.map((file) => join(questionsDirectory, file))].find((path) => !existsSync(path));
  if (missing !== undefined) {
    console.error(`${name}: ${missing} is missing, skipped`);
    return undefined;
  }
  const questions: Question[] = [];
  for (const file of files) questions.push(...(await readQuestionSet(join(questionsDirectory, file))));
  const inLanguage = questions.filter(
    (question) => language === undefined || question.language === undefined || question.language === language,
  );
  return docsSet(name, root, dataDirectory, inLanguage);
}

async function docsSet(name: string, root: string, dataDirectory: string, questions: Question[]): Promise<EvaluationSet> {
  const { directory, entries } = await ingestKnowledgeBase(root, dataDirectory);
  const { directory: wholeFileDirectory } = await ingestKnowledgeBase(root, join(dataDirectory, "whole-file"), { wholeFiles: true });
  const toQuestion = (question: Question): EvaluationQuestion => ({
    id: question.id,
    text: question.question,
    judgments: new Map(question.relevant.map((file) => [file.replace(/\.mdx?$/, ""), 1])),
    split: splitOf(question),
    ...(question.paraphrase ? { paraphrase: true } : {}),
  });
  return {
    name,
    kind: "docs",
    directory,
    wholeFileDirectory,
    entries,
    answerable: questions.filter((question) => question.relevant.length > 0).map(toQuestion),
    outOfScope: questions.filter((question) => question.relevant.length === 0).map(toQuestion),
  };
}

async function writeCollection(documents: Array<{ id: string; title: string; text: string }>, directory: string): Promise<void> {
  const port = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), mode: "write" });
  try {
    const batch: KnowledgeRecord[] = [];
    for (const document of documents) {
      batch.push({
        id: `${document.id}#chunk-0`,
        content: document.title ? `${document.title}\n${document.text}` : document.text,
        metadata: { docId: document.id, chunkIndex: 0, source: document.id, ...(document.title ? { title: document.title } : {}) },
      });
      if (batch.length === 512) await port.upsert(batch.splice(0));
    }
    if (batch.length > 0) await port.upsert(batch);
    await port.commit();
  } finally {
    await port.close();
  }
}
