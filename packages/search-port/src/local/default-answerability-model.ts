import type { AnswerabilityModel } from "./answerability-model.js";

/**
 * The local port's answerability model. Written by `pnpm --filter @lookup-knowledge/eval
 * run calibrate --write`, which fits it on the development halves of every evaluation set
 * at once (one set of parameters for all knowledge bases); the eval README says how it
 * scores on the test halves. Do not edit by hand: refit.
 */
export const defaultAnswerabilityModel: Readonly<AnswerabilityModel> = Object.freeze({
  kind: "logistic",
  version: 4,
  bias: -10.363053,
  weights: Object.freeze({
    lexical: 8.119264,
    dense: 4.508501,
    coverage: 5.805347,
    coverage5: 1.60979,
    unseen: -2.922263,
    missingRare: -0.028686,
    lexicalAgreement: 0.347119,
    denseAgreement: 0.177504,
    matchedRarity: -3.519146,
    rarity: 1.238056,
    margin: 0.878996,
    cjk: 1.500727,
    terms: 1.947594,
  }),
  fittedOn: "development halves (odd ids) of scifact, cranfield, apisix-en, apisix-zh, tidb-zh, examples: answerable questions, hand-written near-domain out-of-scope questions, and cross-collection questions (scifact on cranfield, cranfield on scifact, apisix-en on tidb-zh, apisix-zh on tidb-zh, tidb-zh on apisix-zh, tidb-zh on apisix-en)",
});
