import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { KnowledgeEntry } from "@lookup-knowledge/core";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { ingestFolder } from "@lookup-knowledge/ingest";
import { openLocalSearchPort } from "@lookup-knowledge/search-port/local";
import { readExampleQuestions, readQuestionSet, type Question } from "./question-set.js";

const here = fileURLToPath(new URL(".", import.meta.url));
/** The shared datasets: `$LOOKUP_KNOWLEDGE_DATASETS`, else `../shared/datasets` beside the repository. */
export const datasetsDirectory = process.env.LOOKUP_KNOWLEDGE_DATASETS ?? join(here, "..", "..", "..", "..", "shared", "datasets");
/** The project's question files. */
export const questionsDirectory = join(here, "..", "questions");
/** The repository's example knowledge base. */
export const examplesDirectory = join(here, "..", "..", "..", "examples", "knowledge-base");

/** A Markdown knowledge base with questions that it answers and questions it must refuse. */
export interface KnowledgeBaseSet {
  set: string;
  root: string;
  answerable: Question[];
  unanswerable: Question[];
}

/** The APISIX documentation in English and in Chinese, with the project's question sets. */
export async function apisixSets(): Promise<KnowledgeBaseSet[]> {
  const outOfScope = await readQuestionSet(join(questionsDirectory, "out-of-scope.jsonl"));
  const sets: KnowledgeBaseSet[] = [];
  for (const language of ["en", "zh"] as const) {
    sets.push({
      set: `apisix-${language}`,
      root: join(datasetsDirectory, "apisix-docs", "docs", language, "latest"),
      answerable: await readQuestionSet(join(questionsDirectory, `apisix-${language}.jsonl`)),
      unanswerable: outOfScope.filter((question) => question.language === language),
    });
  }
  return sets;
}

/** The example knowledge base of the repository with its `questions.json`. */
export async function examplesSet(): Promise<KnowledgeBaseSet> {
  const questions = await readExampleQuestions(join(examplesDirectory, "questions.json"));
  return {
    set: "examples",
    root: examplesDirectory,
    answerable: questions.filter((question) => question.relevant.length > 0),
    unanswerable: questions.filter((question) => question.relevant.length === 0),
  };
}

/** A chunk size no page of the datasets reaches: one record per file (whole-file BM25). */
const wholeFileChars = 50_000_000;

/**
 * Ingests a knowledge base into `<dataDirectory>/index` with the offline embedder; with
 * `wholeFiles`, lexical only and one record per file (the whole-file BM25 baseline).
 */
export async function ingestKnowledgeBase(
  root: string,
  dataDirectory: string,
  options: { wholeFiles?: boolean } = {},
): Promise<{ directory: string; entries: KnowledgeEntry[] }> {
  const directory = join(dataDirectory, "index");
  const writer = await openLocalSearchPort(
    options.wholeFiles ? { directory, mode: "write" } : { directory, embeddings: createOfflineEmbeddings(), mode: "write" },
  );
  try {
    const report = await ingestFolder({
      root,
      dataDirectory,
      writer,
      ...(options.wholeFiles ? { options: { maxChunkChars: wholeFileChars, overlapChars: 0 } } : {}),
    });
    const kind = options.wholeFiles ? "whole files" : "chunks";
    console.error(`${root}: ${report.files} files, ${report.chunksWritten} ${kind}, ${report.failed.length} skipped`);
    return { directory, entries: report.entries };
  } finally {
    await writer.close();
  }
}
