import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scoreRankings } from "@lookup-knowledge/agent-tool/evaluation";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import {
  defaultCjkDenseWeight,
  defaultDenseWeight,
  openLocalSearchPort,
  queryDenseWeight,
  tokenize,
  type DenseWeights,
  type LocalSearchPort,
} from "@lookup-knowledge/search-port/local";
import type { EvaluationQuestion, EvaluationSet } from "./evaluation-sets.js";
import { buildEvaluationSets, setNames } from "./evaluation-sets.js";
import { fusionWeightGrid, type FusionMeasure } from "./choose-fusion-weights.js";
import { fusionTable } from "./print-tables.js";

// `pnpm --filter @lookup-knowledge/eval run fusion`: how the local port's two dense weights
// (queries in CJK scripts, queries in other scripts) are chosen. nDCG@10 of the
// port's hybrid ranking (answerability off: ranking alone) on both halves of every set, for
// every pair of the grid; the pair is the one with the best mean over the development
// halves. Leave one knowledge base out: the pair the other bases choose, measured on the
// left-out set's test half beside the shipped defaults and BM25 (both weights 0).

const embeddings = createOfflineEmbeddings();

/** Each question's nDCG@10 at one effective weight, searched once (a question's weight depends on its own terms only). */
async function measureSet(set: EvaluationSet): Promise<FusionMeasure[]> {
  const ports = new Map<number, LocalSearchPort>();
  const scores = new Map<string, number>();
  const questionScore = async (question: EvaluationQuestion, weights: DenseWeights) => {
    const weight = Math.round(queryDenseWeight(question.text, tokenize(question.text), weights) * 1000) / 1000;
    const cacheKey = `${question.id}@${weight}`;
    const cached = scores.get(cacheKey);
    if (cached !== undefined) return cached;
    let port = ports.get(weight);
    if (port === undefined) {
      port = await openLocalSearchPort({ directory: set.directory, embeddings, denseWeight: weight, answerability: false });
      ports.set(weight, port);
    }
    const hits = await port.search({ query: question.text, topK: 100 });
    const ranking = [...new Set(hits.map((hit) => String(hit.metadata.docId ?? hit.id)))];
    const score = scoreRankings([{ ranking, judgments: question.judgments }]).ndcg10;
    scores.set(cacheKey, score);
    return score;
  };
  const mean = async (questions: readonly EvaluationQuestion[], weights: DenseWeights) => {
    let total = 0;
    for (const question of questions) total += await questionScore(question, weights);
    return total / Math.max(1, questions.length);
  };
  const dev = set.answerable.filter((question) => question.split === "dev");
  const test = set.answerable.filter((question) => question.split === "test");
  const measures: FusionMeasure[] = [];
  try {
    for (const denseWeight of fusionWeightGrid) {
      for (const cjkDenseWeight of fusionWeightGrid) {
        const weights = { denseWeight, cjkDenseWeight };
        measures.push({ set: set.name, value: weights, dev: await mean(dev, weights), test: await mean(test, weights) });
      }
    }
  } finally {
    for (const port of ports.values()) await port.close();
  }
  return measures;
}

const measures: FusionMeasure[] = [];
const workspace = await mkdtemp(join(tmpdir(), "lookup-knowledge-fusion-"));
try {
  for (const set of await buildEvaluationSets(workspace, new Set(setNames))) measures.push(...(await measureSet(set)));
} finally {
  await rm(workspace, { recursive: true, force: true });
}
const current = { denseWeight: defaultDenseWeight, cjkDenseWeight: defaultCjkDenseWeight };
console.log("nDCG@10 of the port's hybrid ranking, development / test half, with both weights equal:\n");
for (const set of [...new Set(measures.map((measure) => measure.set))]) {
  const cells = measures
    .filter((measure) => measure.set === set && measure.value.denseWeight === measure.value.cjkDenseWeight)
    .map((measure) => `${measure.value.denseWeight.toFixed(2)}: ${measure.dev.toFixed(3)}/${measure.test.toFixed(3)}`);
  console.log(`${set.padEnd(22)}${cells.join("  ")}`);
}
console.log("\nLeave one knowledge base out: the weights chosen on the other bases' development halves, on this set's test half.\n");
console.log(fusionTable(measures, current));
