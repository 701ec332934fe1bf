import type { CalibrationView } from "./types.js";

/** Found on answerable and refused on out-of-scope questions at one threshold. */
export interface ThresholdRates {
  threshold: number;
  answerableFound: number;
  answerableAsked: number;
  outOfScopeRefused: number;
  outOfScopeAsked: number;
}

/**
 * The rates a threshold gives, from each question's gate score (the highest threshold at which
 * it finds evidence): found when its gate score is at or above the threshold, as `eval` counts.
 */
export function ratesAt(samples: CalibrationView["samples"], threshold: number): ThresholdRates {
  const foundAt = (gateScore: number | null) => gateScore !== null && gateScore >= threshold;
  const answerable = samples.filter((sample) => sample.answerable);
  const outOfScope = samples.filter((sample) => !sample.answerable);
  return {
    threshold,
    answerableFound: answerable.filter((sample) => foundAt(sample.gateScore)).length,
    answerableAsked: answerable.length,
    outOfScopeRefused: outOfScope.filter((sample) => !foundAt(sample.gateScore)).length,
    outOfScopeAsked: outOfScope.length,
  };
}

/** The thresholds the slider and the trade-off curve step through: 0 to 1 by 0.01. */
export const sliderThresholds = Array.from({ length: 101 }, (_, index) => index / 100);

export const percent = (part: number, whole: number) => (whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`);
