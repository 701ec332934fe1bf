import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKnowledgeRetriever, type KnowledgeRetriever } from "@lookup-knowledge/agent-tool";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { createL0Index } from "@lookup-knowledge/l0-hints";
import type { KnowledgeRecord, KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import { openLocalSearchPort, type LocalSearchPortOptions } from "@lookup-knowledge/search-port/local";
import { readBeirCollection, type BeirCollection } from "./beir-collection.js";
import { scoreRankings, type Judgments, type RankingScores } from "./metrics.js";
import { apisixSets, datasetsDirectory, examplesSet, ingestKnowledgeBase, type KnowledgeBaseSet } from "./knowledge-bases.js";
import type { Question } from "./question-set.js";
import { splitOf } from "./split.js";

// `pnpm eval`: retrieval quality of the embedded default on public test collections
// (SciFact, Cranfield) and on the project's own question sets over the APISIX docs, with
// BM25-only and dense-only rows beside the hybrid port and the whole retriever.

const selected = new Set((process.argv[2] ?? "scifact,cranfield,apisix,examples").split(","));

interface Row {
  set: string;
  system: string;
  scores?: RankingScores;
  found?: string;
  note?: string;
}
const rows: Row[] = [];
const workspace = await mkdtemp(join(tmpdir(), "lookup-knowledge-eval-"));

type PortVariant = { system: string; options: Partial<LocalSearchPortOptions> };
const portVariants: PortVariant[] = [
  { system: "BM25 only (port, denseWeight 0)", options: { denseWeight: 0, minScore: 0 } },
  { system: "dense only (port, denseWeight 1)", options: { denseWeight: 1, minScore: 0 } },
  { system: "hybrid (port, defaults, no cut)", options: { minScore: 0 } },
];

try {
  for (const name of ["scifact", "cranfield"]) {
    if (!selected.has(name)) continue;
    const collection = await readBeirCollection(join(datasetsDirectory, name), name);
    const directory = join(workspace, name);
    const started = performance.now();
    await buildCollectionIndex(collection, directory);
    console.error(`${name}: indexed ${collection.documents.length} documents in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    for (const variant of portVariants) {
      const port = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), ...variant.options });
      const runs = [];
      for (const query of collection.queries) runs.push({ ranking: await rankWithPort(port, query.text), judgments: query.judgments });
      rows.push({ set: name, system: variant.system, scores: scoreRankings(runs) });
      await port.close();
    }
    const port = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings() });
    // The whole retriever: one block per document so the ranking is of documents, 20 of them.
    const retriever = createKnowledgeRetriever({
      searchPort: port,
      config: { "rag.retrieve-k": 100, "rag.return-n": 20, "rag.max-chunks-per-document": 1 },
    });
    const runs = [];
    let found = 0;
    for (const query of collection.queries) {
      const ranking = await rankWithRetriever(retriever, query.text);
      if (ranking.length > 0) found += 1;
      runs.push({ ranking, judgments: query.judgments });
    }
    rows.push({ set: name, system: "full retriever (lookup)", scores: scoreRankings(runs), found: percent(found, collection.queries.length) });
    await port.close();
  }

  if (selected.has("apisix")) for (const knowledgeBase of await apisixSets()) await evaluateKnowledgeBase(knowledgeBase);
  if (selected.has("examples")) await evaluateKnowledgeBase(await examplesSet());
} finally {
  await rm(workspace, { recursive: true, force: true });
}

printTable(rows);

/**
 * Ingests a Markdown folder and scores the ports and the whole retriever on its questions.
 * The retriever's found and refused counts are also given for the held-out test half
 * (`splitOf`), since the port's calibration was fitted on the development half.
 */
async function evaluateKnowledgeBase(input: KnowledgeBaseSet): Promise<void> {
  const { set, root, answerable, unanswerable } = input;
  const { directory, entries } = await ingestKnowledgeBase(root, join(workspace, set));
  for (const variant of portVariants) {
    const port = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), ...variant.options });
    const runs = [];
    for (const question of answerable) runs.push({ ranking: await rankWithPort(port, question.question), judgments: judgmentsOf(question) });
    rows.push({ set, system: variant.system, scores: scoreRankings(runs) });
    await port.close();
  }
  const port = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings() });
  const retriever = createKnowledgeRetriever({ searchPort: port, l0Index: createL0Index(entries) });
  const runs = [];
  const found = new Set<string>();
  for (const question of answerable) {
    const ranking = await rankWithRetriever(retriever, question.question);
    if (ranking.length > 0) found.add(question.id);
    runs.push({ ranking, judgments: judgmentsOf(question) });
  }
  const refused = new Set<string>();
  for (const question of unanswerable) {
    if ((await rankWithRetriever(retriever, question.question)).length === 0) refused.add(question.id);
  }
  const test = (questions: Question[]) => questions.filter((question) => splitOf(question) === "test");
  const count = (questions: Question[], ids: Set<string>) => questions.filter((question) => ids.has(question.id)).length;
  rows.push({
    set,
    system: "full retriever (lookup)",
    scores: scoreRankings(runs),
    found: percent(found.size, answerable.length),
    note:
      `out-of-scope found=false ${refused.size}/${unanswerable.length}; ` +
      `test half: found ${count(test(answerable), found)}/${test(answerable).length}, ` +
      `out-of-scope found=false ${count(test(unanswerable), refused)}/${test(unanswerable).length}`,
  });
  await port.close();
}

async function buildCollectionIndex(collection: BeirCollection, directory: string): Promise<void> {
  const port = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), mode: "write" });
  const batch: KnowledgeRecord[] = [];
  for (const document of collection.documents) {
    batch.push({
      id: `${document.id}#chunk-0`,
      content: document.title ? `${document.title}\n${document.text}` : document.text,
      metadata: { docId: document.id, chunkIndex: 0, source: document.id, ...(document.title ? { title: document.title } : {}) },
    });
    if (batch.length === 512) await port.upsert(batch.splice(0));
  }
  if (batch.length > 0) await port.upsert(batch);
  await port.commit();
  await port.close();
}

async function rankWithPort(port: KnowledgeSearchPort, query: string): Promise<string[]> {
  const hits = await port.search({ query, topK: 100 });
  return distinct(hits.map((hit) => String(hit.metadata.docId ?? hit.id)));
}

async function rankWithRetriever(retriever: KnowledgeRetriever, query: string): Promise<string[]> {
  const result = await retriever.lookup(query);
  return result.found ? distinct(result.evidenceBlocks.map((block) => block.docId ?? block.evidenceKey)) : [];
}

function judgmentsOf(question: Question): Judgments {
  return new Map(question.relevant.map((file) => [file.replace(/\.mdx?$/, ""), 1]));
}

function distinct(ids: string[]): string[] {
  return [...new Set(ids)];
}

function percent(part: number, whole: number): string {
  return `${part}/${whole} (${((100 * part) / Math.max(1, whole)).toFixed(0)}%)`;
}

function printTable(table: Row[]): void {
  const header = ["set", "system", "nDCG@10", "R@5", "R@20", "MRR@10", "found", "note"];
  const lines = table.map((row) => [
    row.set,
    row.system,
    row.scores ? row.scores.ndcg10.toFixed(3) : "",
    row.scores ? row.scores.recall5.toFixed(3) : "",
    row.scores ? row.scores.recall20.toFixed(3) : "",
    row.scores ? row.scores.mrr10.toFixed(3) : "",
    row.found ?? "",
    row.note ?? "",
  ]);
  const widths = header.map((title, index) => Math.max(title.length, ...lines.map((line) => line[index]?.length ?? 0)));
  const render = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join("  ").trimEnd();
  console.log(render(header));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const line of lines) console.log(render(line));
}
