import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultRagConfig } from "@lookup-knowledge/core";
import { defaultAnswerabilityModel, fittedSignalNames, type AnswerabilityModel } from "@lookup-knowledge/search-port/local";
import { fitOnDevelopment, gateCounts, gateSummary } from "./answerability-fit.js";
import { collectAnswerabilitySamples } from "./answerability-samples.js";
import { buildEvaluationSets, crossCollectionPairs, setNames } from "./evaluation-sets.js";
import { leaveOneOut, recallFirstThreshold, recallTarget } from "./leave-one-out.js";
import { questionLengthLines } from "./question-lengths.js";

// `pnpm --filter @lookup-knowledge/eval run calibrate [--write]`: fits the local port's
// answerability model on the development halves of every set at once (one set of
// parameters for all knowledge bases), chooses its recall-first threshold (leave one
// knowledge base out, development halves), prints how its gate treats each half at that
// threshold, and an ablation (the model refitted without each signal). `--write` writes the
// fitted parameters and the threshold into the search-port package.

const write = process.argv.includes("--write");
const workspace = await mkdtemp(join(tmpdir(), "lookup-knowledge-calibrate-"));
try {
  const sets = await buildEvaluationSets(workspace, new Set(setNames));
  const samples = await collectAnswerabilitySamples(sets);
  const version = defaultAnswerabilityModel.version + 1;
  const fittedOn =
    `development halves (odd ids) of ${sets.map((set) => set.name).join(", ")}: answerable questions, ` +
    `hand-written near-domain out-of-scope questions, and cross-collection questions (${crossCollectionPairs.map(([asked, of]) => `${asked} on ${of}`).join(", ")})`;
  const model = fitOnDevelopment(samples, { version, fittedOn });
  console.log(
    `fitted: ${JSON.stringify({ bias: model.bias, weights: model.weights })} and ${Object.keys(model.interactions ?? {}).length} interaction weights`,
  );
  // Recall first: the operating point is chosen on the development halves, each set judged by
  // a model fitted without its knowledge base, so it allows for what a fit loses on a new base.
  const operatingPoint = recallFirstThreshold(leaveOneOut(samples, version).judgedLeftOut("dev"));
  const threshold = operatingPoint.threshold;
  const shown = operatingPoint.found.filter((entry) => Math.round(entry.threshold * 100) % 5 === 0 || entry.threshold === threshold);
  console.log(
    `recall-first threshold (development halves, leave one knowledge base out, mean found >= ${recallTarget}): ${threshold}` +
      ` (the shipped model's is ${defaultAnswerabilityModel.referenceThreshold}; core's rag.reference-threshold default ${defaultRagConfig.referenceThreshold} is for ports without a model)`,
  );
  console.log(`  mean found: ${shown.map((entry) => `${entry.threshold}: ${(100 * entry.found).toFixed(1)}%`).join(", ")}`);
  for (const split of ["dev", "test"] as const) {
    const counts = gateCounts(samples, model, threshold, split);
    console.log(`${split === "dev" ? "development" : "test"} half at ${threshold}: ${gateSummary(counts)}`);
    for (const entry of counts) console.log(`  ${entry.set} ${entry.group}: found ${entry.found}/${entry.asked}`);
  }
  const inUse = defaultAnswerabilityModel.referenceThreshold ?? defaultRagConfig.referenceThreshold;
  console.log(
    `in use (${defaultAnswerabilityModel.version} at ${inUse}), test half: ${gateSummary(gateCounts(samples, defaultAnswerabilityModel, inUse, "test"))}`,
  );
  console.log(`ablation (refitted on the development halves without one signal; test half at ${threshold}):`);
  for (const left of fittedSignalNames) {
    const without = fitOnDevelopment(samples, { version, fittedOn, signals: fittedSignalNames.filter((name) => name !== left) });
    console.log(`  without ${left.padEnd(16)} ${gateSummary(gateCounts(samples, without, threshold, "test"))}`);
  }
  const firstOrder = fitOnDevelopment(samples, { version, fittedOn, interactions: false });
  console.log(`  no interactions          ${gateSummary(gateCounts(samples, firstOrder, threshold, "test"))}`);
  const lexicalOnly = fitOnDevelopment(samples, { version, fittedOn, signals: ["lexical", "dense"] });
  console.log(`  lexical and dense only   ${gateSummary(gateCounts(samples, lexicalOnly, threshold, "test"))}`);
  // Why no fit weighs `terms`: it would learn how each group's authors wrote rather than how well the base matches.
  console.log(
    "mean question length (distinct terms) by group; a group written shorter than another is a bias `terms` would learn (no fit weighs it):",
  );
  for (const line of questionLengthLines(samples)) console.log(line);
  if (write) await writeModel({ ...model, referenceThreshold: threshold });
} finally {
  await rm(workspace, { recursive: true, force: true });
}

async function writeModel(model: AnswerabilityModel): Promise<void> {
  const file = fileURLToPath(
    new URL("../../../packages/search-port/src/local/answerability/default-answerability-model.ts", import.meta.url),
  );
  const weights = Object.entries(model.weights)
    .map(([name, weight]) => `    ${name}: ${weight},`)
    .join("\n");
  const interactions = Object.entries(model.interactions ?? {})
    .map(([name, weight]) => `    "${name}": ${weight},`)
    .join("\n");
  await writeFile(
    file,
    `import type { AnswerabilityModel } from "./answerability-model.js";

/**
 * The local port's answerability model. Written by \`pnpm --filter @lookup-knowledge/eval
 * run calibrate --write\`, which fits it on the development halves of every evaluation set
 * at once (one set of parameters for all knowledge bases); the eval README says how it
 * scores on the test halves. Its \`referenceThreshold\` is the recall-first operating point the
 * same command chooses (decision 0004). Do not edit by hand: refit.
 */
export const defaultAnswerabilityModel: Readonly<AnswerabilityModel> = Object.freeze({
  kind: "logistic",
  version: ${model.version},
  bias: ${model.bias},
  weights: Object.freeze({
${weights}
  }),
  interactions: Object.freeze({
${interactions}
  }),
  referenceThreshold: ${model.referenceThreshold},
  fittedOn:
    ${JSON.stringify(model.fittedOn ?? "")},
});
`,
  );
  console.log(`wrote ${file}`);
}
