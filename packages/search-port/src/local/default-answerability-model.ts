import type { AnswerabilityModel } from "./answerability-model.js";

/**
 * The local port's answerability model. Written by `pnpm --filter @lookup-knowledge/eval
 * run calibrate --write`, which fits it on the development halves of every evaluation set
 * at once (one set of parameters for all knowledge bases); the eval README says how it
 * scores on the test halves. Do not edit by hand: refit.
 */
export const defaultAnswerabilityModel: Readonly<AnswerabilityModel> = Object.freeze({
  kind: "logistic",
  version: 3,
  bias: -10.386217,
  weights: Object.freeze({
    lexical: 8.107485,
    dense: 4.42949,
    coverage: 5.793122,
    coverage5: 1.587347,
    unseen: -2.923557,
    missingRare: -0.040406,
    lexicalAgreement: 0.399953,
    denseAgreement: 0.218425,
    matchedRarity: -3.542342,
    rarity: 1.207006,
    margin: 0.96015,
    cjk: 1.508035,
    terms: 1.945314,
  }),
  fittedOn: "development halves (odd ids) of scifact, cranfield, apisix-en, apisix-zh, tidb-zh, examples: answerable questions, hand-written near-domain out-of-scope questions, and cross-collection questions (scifact on cranfield, cranfield on scifact, apisix-en on tidb-zh, apisix-zh on tidb-zh, tidb-zh on apisix-zh, tidb-zh on apisix-en)",
});
