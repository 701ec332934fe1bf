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
}

/** A knowledge base built into a local index, with its questions. */
export interface EvaluationSet {
  name: string;
  /** `collection`: a test collection, one record per document; `docs`: an ingested Markdown tree. */
  kind: "collection" | "docs";
  directory: string;
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
];

/** Every set's name, in the order `pnpm eval` prints them. */
export const setNames = ["scifact", "cranfield", "apisix-en", "apisix-zh", "tidb-zh", "examples"] as const;

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
    return { name, kind: "collection", directory, answerable, outOfScope: [] };
  }
  if (name === "examples") {
    const questions = await readExampleQuestions(join(examplesDirectory, "questions.json"));
    return docsSet(name, examplesDirectory, dataDirectory, questions);
  }
  if (name === "tidb-zh") {
    const file = join(questionsDirectory, "tidb-zh.jsonl");
    if (!existsSync(file)) {
      console.error(`tidb-zh: ${file} is missing, skipped`);
      return undefined;
    }
    const questions = [
      ...(await readQuestionSet(file)),
      ...(await readQuestionSet(join(questionsDirectory, "tidb-zh-out-of-scope.jsonl"))),
    ];
    return docsSet(name, join(datasetsDirectory, "tidb-docs-cn"), dataDirectory, questions);
  }
  const language = name === "apisix-en" ? "en" : "zh";
  const outOfScope = (await readQuestionSet(join(questionsDirectory, "out-of-scope.jsonl"))).filter(
    (question) => question.language === language,
  );
  const questions = [...(await readQuestionSet(join(questionsDirectory, `${name}.jsonl`))), ...outOfScope];
  return docsSet(name, join(datasetsDirectory, "apisix-docs", "docs", language, "latest"), dataDirectory, questions);
}

async function docsSet(name: string, root: string, dataDirectory: string, questions: Question[]): Promise<EvaluationSet> {
  const { directory, entries } = await ingestKnowledgeBase(root, dataDirectory);
  const toQuestion = (question: Question): EvaluationQuestion => ({
    id: question.id,
    text: question.question,
    judgments: new Map(question.relevant.map((file) => [file.replace(/\.mdx?$/, ""), 1])),
    split: splitOf(question),
  });
  return {
    name,
    kind: "docs",
    directory,
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
