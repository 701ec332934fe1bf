import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scoreRankings } from "@lookup-knowledge/agent-tool/evaluation";
import { defaultRerankWeights } from "@lookup-knowledge/postprocess";
import { defaultAnswerabilityModel } from "@lookup-knowledge/search-port/local";
import { chooseOnDevelopment, leaveOneOutChoice, type ParameterMeasure, type ParameterSpace } from "./choose-on-development.js";
import { openSetRetriever, rankWithRetriever } from "./evaluate-set.js";
import { buildEvaluationSets, setNames, type EvaluationQuestion, type EvaluationSet } from "./evaluation-sets.js";
import { choiceTable } from "./print-tables.js";

// `pnpm --filter @lookup-knowledge/eval run repeated-document`: how the rerank's
// `repeatedDocument` share is chosen. nDCG@10 of the whole retriever (shipped answerability
// model, default settings) on both halves of every Markdown set, at every share of the grid;
// the share is the one with the best mean over the development halves (ties: the smaller
// share). Leave one knowledge base out: the share the other bases choose, on the left-out
// set's test half, beside the shipped share and 0 (every block ranked by its own score).
// The test collections are left out: they are ranked one block per document.

/** The shares tried: 0 to 0.5 in steps of 0.05, then 0.7 and 1. */
const grid = [...Array.from({ length: 11 }, (_, index) => index / 20), 0.7, 1];
const shipped = defaultRerankWeights.repeatedDocument;
const space: ParameterSpace<number> = { name: (share) => share.toFixed(2), order: (a, b) => a - b };

async function measureSet(set: EvaluationSet): Promise<Array<ParameterMeasure<number>>> {
  const measures: Array<ParameterMeasure<number>> = [];
  for (const share of grid) {
    const { retriever, close } = await openSetRetriever(set, defaultAnswerabilityModel, { rerankWeights: { repeatedDocument: share } });
    try {
      const score = async (questions: readonly EvaluationQuestion[]) => {
        const runs = [];
        for (const question of questions)
          runs.push({ ranking: (await rankWithRetriever(retriever, question.text)).ranking, judgments: question.judgments });
        return scoreRankings(runs).ndcg10;
      };
      const half = (split: "dev" | "test") => set.answerable.filter((question) => question.split === split);
      measures.push({ set: set.name, value: share, dev: await score(half("dev")), test: await score(half("test")) });
    } finally {
      await close();
    }
  }
  return measures;
}

const measures: Array<ParameterMeasure<number>> = [];
const workspace = await mkdtemp(join(tmpdir(), "lookup-knowledge-repeated-document-"));
try {
  for (const set of await buildEvaluationSets(workspace, new Set(setNames))) {
    if (set.kind === "docs") measures.push(...(await measureSet(set)));
  }
} finally {
  await rm(workspace, { recursive: true, force: true });
}
console.log("nDCG@10 of the whole retriever, development / test half, at each repeatedDocument share:\n");
for (const set of [...new Set(measures.map((measure) => measure.set))]) {
  const cells = measures
    .filter((measure) => measure.set === set)
    .map((measure) => `${space.name(measure.value)}: ${measure.dev.toFixed(3)}/${measure.test.toFixed(3)}`);
  console.log(`${set.padEnd(22)}${cells.join("  ")}`);
}
console.log("\nLeave one knowledge base out: the share chosen on the other bases' development halves, on this set's test half.\n");
console.log(
  choiceTable(leaveOneOutChoice(measures, space, shipped, 0), {
    name: space.name,
    chosen: "share chosen",
    current: shipped,
    baseline: "share 0",
  }),
);
console.log(`chosen on every set's development half: ${space.name(chooseOnDevelopment(measures, space) ?? Number.NaN)}`);
