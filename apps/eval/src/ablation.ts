import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { answerabilitySignalNames, defaultAnswerabilityModel } from "@lookup-knowledge/search-port/local";
import { collectAnswerabilitySamples } from "./answerability-samples.js";
import { baselineRows, retrieverRow, type EvaluationRow, type RetrieverVariant } from "./evaluate-set.js";
import { buildEvaluationSets, crossCollectionPairs, setNames } from "./evaluation-sets.js";
import { leaveOneOut } from "./leave-one-out.js";
import { ablationTable } from "./print-tables.js";

// `pnpm --filter @lookup-knowledge/eval run ablation`: the leave-one-knowledge-base-out
// headline (the worst set on each measure, test halves) of the whole retriever as shipped
// and with one part switched off at a time: the recall-first threshold (the settings'
// 0.35 instead), the L0 index's common-term test, L0 hints altogether, the rerank's
// repeated-document share, and the gate's matched words (fitted on question length instead).

const variants: Array<[name: string, variant: RetrieverVariant]> = [
  ["as shipped", {}],
  ["threshold 0.35 (not recall first)", { referenceThreshold: 0.35 }],
  ["L0 without the common-term test", { l0: "without common-term test" }],
  ["no L0 hints", { l0: "off" }],
  ["rerank without repeatedDocument", { rerankWeights: { repeatedDocument: 0 } }],
];
/** The gate as it was until v8: question length (`terms`) fitted, `matchedTerms` not. */
const lengthGate = "gate fitted on terms, not matchedTerms";
const lengthSignals = answerabilitySignalNames.filter((name) => name !== "matchedTerms");

const rows: EvaluationRow[] = [];
const workspace = await mkdtemp(join(tmpdir(), "lookup-knowledge-ablation-"));
try {
  const sets = await buildEvaluationSets(workspace, new Set(setNames));
  const byName = new Map(sets.map((set) => [set.name, set]));
  const samples = await collectAnswerabilitySamples(sets);
  const fits = leaveOneOut(samples, defaultAnswerabilityModel.version);
  const lengthFits = leaveOneOut(samples, defaultAnswerabilityModel.version, lengthSignals);
  for (const set of sets) {
    const cross = crossCollectionPairs.flatMap(([asked, of]) => (of === set.name ? (byName.get(asked)?.answerable ?? []) : []));
    rows.push(...(await baselineRows(set)));
    const model = fits.fitWithoutAndChooseThreshold(set.name);
    for (const [name, variant] of variants) rows.push(await retrieverRow(set, cross, name, model, variant));
    rows.push(await retrieverRow(set, cross, lengthGate, lengthFits.fitWithoutAndChooseThreshold(set.name)));
  }
} finally {
  await rm(workspace, { recursive: true, force: true });
}
console.log(
  "Leave one knowledge base out (test halves): the worst set on each measure, for the retriever as shipped and with one part off.\n",
);
console.log(ablationTable(rows, [...variants.map(([name]) => name), lengthGate]));
