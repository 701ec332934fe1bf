import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultAnswerabilityModel } from "@lookup-knowledge/search-port/local";
import { collectAnswerabilitySamples } from "./answerability-samples.js";
import { baselineRows, retrieverRow, type EvaluationRow, type RetrieverVariant } from "./evaluate-set.js";
import { buildEvaluationSets, crossCollectionPairs, setNames } from "./evaluation-sets.js";
import { leaveOneOut } from "./leave-one-out.js";
import { ablationTable } from "./print-tables.js";

// `pnpm --filter @lookup-knowledge/eval run ablation`: the leave-one-knowledge-base-out
// headline (the worst set on each measure, test halves) of the whole retriever as shipped
// and with one part switched off at a time: the recall-first threshold (the settings'
// 0.35 instead), the L0 index's common-term test, and L0 hints altogether.

const variants: Array<[name: string, variant: RetrieverVariant]> = [
  ["as shipped", {}],
  ["threshold 0.35 (not recall first)", { referenceThreshold: 0.35 }],
  ["L0 without the common-term test", { l0: "without common-term test" }],
  ["no L0 hints", { l0: "off" }],
];

const rows: EvaluationRow[] = [];
const workspace = await mkdtemp(join(tmpdir(), "lookup-knowledge-ablation-"));
try {
  const sets = await buildEvaluationSets(workspace, new Set(setNames));
  const byName = new Map(sets.map((set) => [set.name, set]));
  const fits = leaveOneOut(await collectAnswerabilitySamples(sets), defaultAnswerabilityModel.version);
  for (const set of sets) {
    const cross = crossCollectionPairs.flatMap(([asked, of]) => (of === set.name ? (byName.get(asked)?.answerable ?? []) : []));
    rows.push(...(await baselineRows(set)));
    const model = fits.fitWithoutAndChooseThreshold(set.name);
    for (const [name, variant] of variants) rows.push(await retrieverRow(set, cross, name, model, variant));
  }
} finally {
  await rm(workspace, { recursive: true, force: true });
}
console.log(
  "Leave one knowledge base out (test halves): the worst set on each measure, for the retriever as shipped and with one part off.\n",
);
console.log(
  ablationTable(
    rows,
    variants.map(([name]) => name),
  ),
);
