import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { KnowledgeEntry } from "@lookup-knowledge/core";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { ingestFolder } from "@lookup-knowledge/ingest";
import type { KnowledgeRecord, KnowledgeWriter } from "@lookup-knowledge/search-port";
import { openLocalSearchPort, type LocalSearchPort } from "@lookup-knowledge/search-port/local";
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

/**
 * Ingests a knowledge base into `<dataDirectory>/index` with the offline embedder; with
 * `wholeFiles`, lexical only and one record per file, its chunks joined in order (the
 * whole-file BM25 baseline).
 */
export async function ingestKnowledgeBase(
  root: string,
  dataDirectory: string,
  options: { wholeFiles?: boolean } = {},
): Promise<{ directory: string; entries: KnowledgeEntry[] }> {
  const directory = join(dataDirectory, "index");
  const port = await openLocalSearchPort(
    options.wholeFiles ? { directory, mode: "write" } : { directory, embeddings: createOfflineEmbeddings(), mode: "write" },
  );
  const writer = options.wholeFiles ? wholeFileWriter(port) : port;
  try {
    const report = await ingestFolder({ root, dataDirectory, writer, ...(options.wholeFiles ? { options: { overlapChars: 0 } } : {}) });
    console.error(
      `${root}: ${report.files} files, ${options.wholeFiles ? "one record each" : `${report.chunksWritten} chunks`}, ${report.failed.length} skipped`,
    );
    return { directory, entries: report.entries };
  } finally {
    await port.close();
  }
}

/** A writer that gathers each document's chunks and, at commit, writes one record per document. */
function wholeFileWriter(port: LocalSearchPort): KnowledgeWriter {
  const documents = new Map<string, KnowledgeRecord[]>();
  return {
    async upsert(records) {
      for (const record of records) {
        const docId = String(record.metadata.docId);
        documents.set(docId, [...(documents.get(docId) ?? []), record]);
      }
    },
    async deleteDocuments(docIds) {
      for (const docId of docIds) documents.delete(docId);
      return port.deleteDocuments(docIds);
    },
    async commit() {
      const records: KnowledgeRecord[] = [];
      for (const [docId, chunks] of documents) {
        chunks.sort((left, right) => Number(left.metadata.chunkIndex) - Number(right.metadata.chunkIndex));
        const first = chunks[0] as KnowledgeRecord;
        records.push({
          id: `${docId}#chunk-0`,
          content: chunks.map((chunk) => chunk.content).join("\n"),
          metadata: { ...first.metadata, chunkIndex: 0 },
        });
      }
      await port.upsert(records);
      await port.commit();
      documents.clear();
    },
  };
}
