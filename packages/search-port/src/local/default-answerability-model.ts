import type { AnswerabilityModel } from "./answerability-model.js";

/**
 * The local port's answerability model. Written by `pnpm --filter @lookup-knowledge/eval
 * run calibrate --write`, which fits it on the development halves of every evaluation set
 * at once (one set of parameters for all knowledge bases); the eval README says how it
 * scores on the test halves. Do not edit by hand: refit.
 */
export const defaultAnswerabilityModel: Readonly<AnswerabilityModel> = Object.freeze({
  kind: "logistic",
  version: 2,
  bias: -7.823799,
  weights: Object.freeze({
    lexical: 7.922254,
    dense: 4.622211,
    coverage: 6.341201,
    coverage5: 1.650311,
    unseen: -1.09891,
    missingRare: -0.902194,
    lexicalAgreement: -0.954254,
    denseAgreement: -0.380709,
    matchedRarity: -1.501282,
    rarity: -2.041921,
    margin: 0.356856,
    cjk: 2.319763,
    terms: 2.108493,
  }),
  fittedOn: "development halves (odd ids) of scifact, cranfield, apisix-en, apisix-zh, tidb-zh, examples: answerable questions, hand-written near-domain out-of-scope questions, and cross-collection questions (scifact on cranfield, cranfield on scifact, apisix-en on tidb-zh, apisix-zh on tidb-zh, tidb-zh on apisix-zh, tidb-zh on apisix-en)",
});
