import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultAnswerabilityModel } from "@lookup-knowledge/search-port/local";
import { collectAnswerabilitySamples } from "./answerability-samples.js";
import { baselineRows, retrieverRow, type EvaluationRow } from "./evaluate-set.js";
import { buildEvaluationSets, crossCollectionPairs, setNames } from "./evaluation-sets.js";
import { leaveOneOut } from "./leave-one-out.js";
import { leaveOneOutTable, rowsTable } from "./print-tables.js";

// `pnpm eval [sets]`: retrieval quality of the embedded default on the held-out test half
// of every set (ids ending in an even number): plain BM25 over whole files and over chunks,
// the port's dense and hybrid rankings, the whole retriever with the shipped answerability
// model, and the whole retriever with a model fitted leave-one-knowledge-base-out (on the
// development halves of every other set), with how many answerable questions it found
// (paraphrases apart), how many near-domain ones it refused, and how many questions of
// other sets asked of this one (cross-collection) it refused.

const selected = new Set(
  (process.argv[2] ?? setNames.join(",")).split(",").flatMap((name) => (name === "apisix" ? ["apisix-en", "apisix-zh"] : [name])),
);
const shipped = "full retriever (shipped model)";
const leftOut = "full retriever (fitted without this set)";

const rows: EvaluationRow[] = [];
const workspace = await mkdtemp(join(tmpdir(), "lookup-knowledge-eval-"));
try {
  // Cross-collection questions need their source set built too; the leave-one-out fit needs every set.
  const sets = await buildEvaluationSets(workspace, new Set(setNames));
  const byName = new Map(sets.map((set) => [set.name, set]));
  const fits = leaveOneOut(await collectAnswerabilitySamples(sets), defaultAnswerabilityModel.version);
  for (const set of sets) {
    if (!selected.has(set.name)) continue;
    const cross = crossCollectionPairs.flatMap(([asked, of]) => (of === set.name ? (byName.get(asked)?.answerable ?? []) : []));
    rows.push(...(await baselineRows(set)));
    rows.push(await retrieverRow(set, cross, shipped, defaultAnswerabilityModel));
    rows.push(await retrieverRow(set, cross, leftOut, fits.fitWithoutAndChooseThreshold(set.name)));
  }
} finally {
  await rm(workspace, { recursive: true, force: true });
}
console.log("Test halves (ids ending in an even number); parameters were fitted on the development halves only.\n");
console.log(rowsTable(rows));
console.log(
  "\nLeave one knowledge base out: the model fitted on the development halves of every other set, measured on this one's test half.\n",
);
console.log(leaveOneOutTable(rows, leftOut));
