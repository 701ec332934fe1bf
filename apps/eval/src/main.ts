import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKnowledgeRetriever, type KnowledgeRetriever } from "@lookup-knowledge/agent-tool";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { createL0Index } from "@lookup-knowledge/l0-hints";
import type { KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import { openLocalSearchPort, type LocalSearchPortOptions } from "@lookup-knowledge/search-port/local";
import { buildEvaluationSets, crossCollectionPairs, setNames, type EvaluationQuestion, type EvaluationSet } from "./evaluation-sets.js";
import { scoreRankings, type RankingScores } from "@lookup-knowledge/agent-tool/evaluation";

// `pnpm eval [sets]`: retrieval quality of the embedded default on the held-out test half
// of every set (ids ending in an even number): BM25-only, dense-only and hybrid rows of the
// port beside the whole retriever, with how many answerable questions the retriever found,
// how many near-domain out-of-scope questions it refused, and how many questions of other
// sets asked of this one (cross-collection) it refused.

const selected = new Set(
  (process.argv[2] ?? setNames.join(",")).split(",").flatMap((name) => (name === "apisix" ? ["apisix-en", "apisix-zh"] : [name])),
);

interface Row {
  set: string;
  system: string;
  scores: RankingScores;
  found?: string;
  near?: string;
  cross?: string;
}

type PortVariant = { system: string; options: Partial<LocalSearchPortOptions> };
const portVariants: PortVariant[] = [
  { system: "BM25 only (port, denseWeight 0)", options: { denseWeight: 0, minScore: 0 } },
  { system: "dense only (port, denseWeight 1)", options: { denseWeight: 1, minScore: 0 } },
  { system: "hybrid (port, defaults, no cut)", options: { minScore: 0 } },
];

const rows: Row[] = [];
const workspace = await mkdtemp(join(tmpdir(), "lookup-knowledge-eval-"));
try {
  // Cross-collection questions need their source set built too.
  const needed = new Set(selected);
  for (const [asked, of] of crossCollectionPairs) if (selected.has(of)) needed.add(asked);
  const sets = await buildEvaluationSets(workspace, needed);
  const byName = new Map(sets.map((set) => [set.name, set]));
  for (const set of sets) {
    if (!selected.has(set.name)) continue;
    const cross = crossCollectionPairs.flatMap(([asked, of]) => (of === set.name ? (byName.get(asked)?.answerable ?? []) : []));
    await evaluateSet(set, cross);
  }
} finally {
  await rm(workspace, { recursive: true, force: true });
}
printTable(rows);

async function evaluateSet(set: EvaluationSet, cross: readonly EvaluationQuestion[]): Promise<void> {
  const answerable = testHalf(set.answerable);
  for (const variant of portVariants) {
    const port = await openLocalSearchPort({ directory: set.directory, embeddings: createOfflineEmbeddings(), ...variant.options });
    const runs = [];
    for (const question of answerable) runs.push({ ranking: await rankWithPort(port, question.text), judgments: question.judgments });
    rows.push({ set: set.name, system: variant.system, scores: scoreRankings(runs) });
    await port.close();
  }
  const port = await openLocalSearchPort({ directory: set.directory, embeddings: createOfflineEmbeddings() });
  // A test collection is ranked as documents: one block per document, 20 of them.
  const config: Record<string, number> =
    set.kind === "collection" ? { "rag.retrieve-k": 100, "rag.return-n": 20, "rag.max-chunks-per-document": 1 } : {};
  const retriever = createKnowledgeRetriever({ searchPort: port, config, ...(set.entries ? { l0Index: createL0Index(set.entries) } : {}) });
  const runs = [];
  let found = 0;
  for (const question of answerable) {
    const ranking = await rankWithRetriever(retriever, question.text);
    if (ranking.length > 0) found += 1;
    runs.push({ ranking, judgments: question.judgments });
  }
  const refused = async (questions: readonly EvaluationQuestion[]) => {
    let count = 0;
    for (const question of questions) if ((await rankWithRetriever(retriever, question.text)).length === 0) count += 1;
    return count;
  };
  const near = testHalf(set.outOfScope);
  const crossTest = testHalf(cross);
  rows.push({
    set: set.name,
    system: "full retriever (lookup)",
    scores: scoreRankings(runs),
    found: share(found, answerable.length),
    ...(near.length > 0 ? { near: share(await refused(near), near.length) } : {}),
    ...(crossTest.length > 0 ? { cross: share(await refused(crossTest), crossTest.length) } : {}),
  });
  await port.close();
}

function testHalf(questions: readonly EvaluationQuestion[]): EvaluationQuestion[] {
  return questions.filter((question) => question.split === "test");
}

async function rankWithPort(port: KnowledgeSearchPort, query: string): Promise<string[]> {
  const hits = await port.search({ query, topK: 100 });
  return distinct(hits.map((hit) => String(hit.metadata.docId ?? hit.id)));
}

async function rankWithRetriever(retriever: KnowledgeRetriever, query: string): Promise<string[]> {
  const result = await retriever.lookup(query);
  return result.found ? distinct(result.evidenceBlocks.map((block) => block.docId ?? block.evidenceKey)) : [];
}

function distinct(ids: string[]): string[] {
  return [...new Set(ids)];
}

function share(part: number, whole: number): string {
  return `${part}/${whole} (${((100 * part) / Math.max(1, whole)).toFixed(0)}%)`;
}

function printTable(table: Row[]): void {
  console.log("Test halves (ids ending in an even number); parameters were fitted on the development halves only.\n");
  const header = [
    "set",
    "system",
    "nDCG@10",
    "R@5",
    "R@20",
    "MRR@10",
    "answerable found",
    "near-domain refused",
    "cross-collection refused",
  ];
  const lines = table.map((row) => [
    row.set,
    row.system,
    row.scores.ndcg10.toFixed(3),
    row.scores.recall5.toFixed(3),
    row.scores.recall20.toFixed(3),
    row.scores.mrr10.toFixed(3),
    row.found ?? "",
    row.near ?? "",
    row.cross ?? "",
  ]);
  const widths = header.map((title, index) => Math.max(title.length, ...lines.map((line) => line[index]?.length ?? 0)));
  const render = (cells: string[]) =>
    cells
      .map((cell, index) => cell.padEnd(widths[index] ?? 0))
      .join("  ")
      .trimEnd();
  console.log(render(header));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const line of lines) console.log(render(line));
}
