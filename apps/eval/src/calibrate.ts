import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultRagConfig } from "@lookup-knowledge/core";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { defaultScoreExponents, openLocalSearchPort, queryScoreExponent, tokenize } from "@lookup-knowledge/search-port/local";
import { apisixSets, ingestKnowledgeBase } from "./knowledge-bases.js";
import { splitOf } from "./split.js";

// `pnpm --filter @lookup-knowledge/eval run calibrate`: fits the local port's score
// exponents on the development half of the APISIX question sets. For each language it
// finds the exponent that puts the reference threshold midway between the best scores of
// the 8th and 9th of every 10 development out-of-scope questions (ranked by best score), so
// that the threshold refuses 8 in 10 of them. English fits the Latin exponent; Chinese
// then fits the CJK one with the Latin one fixed. The held-out test half is left for `pnpm eval`.

const refusedShare = 0.8;
const threshold = defaultRagConfig.referenceThreshold;
const workspace = await mkdtemp(join(tmpdir(), "lookup-knowledge-calibrate-"));
const fitted = { ...defaultScoreExponents };
try {
  for (const { set, root, unanswerable } of await apisixSets()) {
    const { directory } = await ingestKnowledgeBase(root, join(workspace, set));
    const port = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), minScore: 0, scoreExponents: { latin: 1, cjk: 1 } });
    const development = unanswerable.filter((question) => splitOf(question) === "dev");
    const fused: Array<{ score: number; terms: string[] }> = [];
    for (const question of development) {
      const [best] = await port.search({ query: question.question, topK: 1 });
      fused.push({ score: best?.score ?? 0, terms: tokenize(question.question) });
    }
    await port.close();
    const key = set.endsWith("-zh") ? "cjk" : "latin";
    fitted[key] = fitExponent((exponent) => fused.map(({ score, terms }) => score ** queryScoreExponent(terms, { ...fitted, [key]: exponent })));
    console.log(`${set}: ${development.length} development out-of-scope questions, ${key} exponent ${fitted[key].toFixed(3)}`);
  }
} finally {
  await rm(workspace, { recursive: true, force: true });
}
console.log(`fitted scoreExponents: ${JSON.stringify({ latin: round(fitted.latin), cjk: round(fitted.cjk) })}`);
console.log(`in use:                ${JSON.stringify(defaultScoreExponents)}`);

/**
 * The exponent (0.05..4) whose calibrated scores put the threshold midway between the
 * scores either side of the refused share. A larger exponent lowers every score below 1,
 * so the midpoint falls as the exponent grows: bisection.
 */
function fitExponent(scoresWith: (exponent: number) => number[]): number {
  const gap = (exponent: number): number => {
    const scores = scoresWith(exponent).sort((a, b) => a - b);
    const refused = Math.ceil(refusedShare * scores.length);
    const below = scores[refused - 1] ?? 0;
    const above = scores[refused] ?? Math.min(1, below + 0.05);
    return (below + above) / 2 - threshold;
  };
  let low = 0.05;
  let high = 4;
  for (let step = 0; step < 60; step += 1) {
    const middle = (low + high) / 2;
    if (gap(middle) > 0) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
