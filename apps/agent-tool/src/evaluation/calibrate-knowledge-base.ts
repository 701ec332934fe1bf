import { basename } from "node:path";
import { LookupKnowledgeError, resolveRagConfig, type FlatRagConfig, type RagConfigInput } from "@lookup-knowledge/core";
import { answerabilityModelName, defaultAnswerabilityModel } from "@lookup-knowledge/search-port/local";
import { openKnowledgeBase } from "../open-knowledge-base.js";
import { openSearchStore, storeIdentity } from "../open-search-store.js";
import type { StoreSettings } from "../store-settings.js";
import { calibrationFormatVersion, writeCalibrationFile, type Calibration } from "./calibration-file.js";
import { evaluateRetriever, type QuestionOutcome } from "./evaluate-retriever.js";
import {
  collectAnswerabilitySamples,
  fitUserAnswerabilityModel,
  neutralAnswerabilityModel,
  roughFitBelow,
} from "./fit-user-answerability-model.js";
import type { EvaluationQuestion } from "./read-question-file.js";
import { setsReferenceThreshold } from "../retriever/sets-reference-threshold.js";
import { describeCalibration, resolveCalibration, type CalibrationState } from "./resolve-calibration.js";
import { fitReferenceThreshold, tableThresholds, thresholdTradeOff, type ThresholdRow } from "./threshold-trade-off.js";
import type { AgentToolErrorCode } from "../agent-tool-error-code.js";

/** The gate of one calibration at each threshold of the table. */
export interface GateFigures {
  /** `answerability-logistic@3`, `reference threshold 0.35`, ... */
  label: string;
  rows: ThresholdRow[];
  /** The row at the threshold lookups use with it. */
  inUse: ThresholdRow;
}

/** What `calibrateKnowledgeBase` fitted and wrote. */
export interface CalibrationReport {
  calibration: Calibration;
  /** The calibration file written. */
  file: string;
  store: string;
  questions: { answerable: number; outOfScope: number; withoutHits: number };
  /** The gate before (the calibration in use, or the defaults) and after the fit. */
  before: GateFigures;
  after: GateFigures;
  /** The L2 penalty of an answerability fit. */
  penalty?: number;
}

/** Fewer than this many questions of either kind are refused. */
export const minimumQuestions = 2;

/**
 * Fits a calibration of a knowledge base on the user's questions and writes it into the
 * store's state folder (`calibration.json`), where later `openKnowledgeBase` calls find it.
 * The local index gets an answerability model (`fitUserAnswerabilityModel`, version 1000 + n);
 * a store with plain scores the `rag.reference-threshold` of the best balanced accuracy
 * (ties to the lower). Both are judged through the whole retriever, before and after, at
 * the thresholds of `tableThresholds`.
 */
export async function calibrateKnowledgeBase(options: {
  dataDirectory: string;
  store?: StoreSettings;
  config?: RagConfigInput | FlatRagConfig;
  questions: readonly EvaluationQuestion[];
  /** The question file, for the record (only its name is kept). */
  questionFile: string;
  environment?: NodeJS.ProcessEnv;
  onWarning?: (message: string) => void;
  now?: () => Date;
}): Promise<CalibrationReport> {
  const settings = options.store ?? { kind: "local" };
  const warn = options.onWarning ?? ((message: string) => console.warn(message));
  const answerable = options.questions.filter((question) => question.relevant.length > 0).length;
  const outOfScope = options.questions.length - answerable;
  if (answerable < minimumQuestions || outOfScope < minimumQuestions) {
    throw new LookupKnowledgeError<AgentToolErrorCode>({
      code: "too_few_questions",
      message: `Calibrating needs at least ${minimumQuestions} answerable and ${minimumQuestions} out-of-scope questions (relevant: []) in ${options.questionFile}; it has ${answerable} and ${outOfScope}.`,
    });
  }
  if (Math.min(answerable, outOfScope) < roughFitBelow) {
    warn(
      `Only ${answerable} answerable and ${outOfScope} out-of-scope questions: the fit is rough; ${roughFitBelow} or more of each make it steadier.`,
    );
  }
  const identity = storeIdentity(settings, options.dataDirectory);
  const current = await currentCalibration(identity, options.config, warn);
  const common = {
    dataDirectory: options.dataDirectory,
    store: settings,
    ...(options.environment ? { environment: options.environment } : {}),
    onWarning: warn,
  };
  // At threshold 1 every retry runs, so each question's gate score is exact (thresholdTradeOff).
  const probe = probeConfig(options.config);
  const configuredThreshold = resolveRagConfig(options.config ?? {}).referenceThreshold;
  const explicitThreshold = setsReferenceThreshold(options.config);
  const gateOf = async (calibration: Calibration | false) => {
    const knowledgeBase = await openKnowledgeBase({ ...common, config: probe, calibration });
    try {
      return (await evaluateRetriever(knowledgeBase.retriever, options.questions)).questions;
    } finally {
      await knowledgeBase.close();
    }
  };
  const currentModel =
    current?.status === "used" && current.calibration.fitted.kind === "answerability-model" ? current.calibration : false;
  const beforeOutcomes = await gateOf(currentModel);
  // What lookups read the gate at now, as a lookup opens the store: the settings' threshold, the
  // calibration's, or the one the local index's model names.
  const beforeThreshold = await thresholdInUse({ ...common, config: options.config ?? {} }, current);
  const base = {
    version: calibrationFormatVersion,
    store: { kind: identity.kind, description: identity.description, key: identity.key },
    embedder: { ...identity.embedder },
    fittedAt: (options.now ?? (() => new Date()))().toISOString(),
    questions: { file: basename(options.questionFile), answerable, outOfScope },
  } satisfies Omit<Calibration, "fitted">;

  let calibration: Calibration;
  let afterOutcomes: QuestionOutcome[];
  let fitted: number;
  let penalty: number | undefined;
  let withoutHits = beforeOutcomes.filter((outcome) => outcome.gateScore === undefined).length;
  if (identity.kind === "local") {
    const store = await openSearchStore(settings, {
      ...common,
      mode: "read",
      localIndex: { answerability: neutralAnswerabilityModel, minScore: 0 },
    });
    let samples: Awaited<ReturnType<typeof collectAnswerabilitySamples>>;
    try {
      samples = await collectAnswerabilitySamples(store.port, options.questions);
    } finally {
      await store.close();
    }
    withoutHits = samples.filter((sample) => sample.signals === undefined).length;
    const previous = current?.calibration.fitted.kind === "answerability-model" ? current.calibration.fitted.model.version : 0;
    const fit = fitUserAnswerabilityModel(samples, {
      version: Math.max(1000, previous) + 1,
      fittedOn: `${base.questions.file}: ${answerable} answerable and ${outOfScope} out-of-scope questions, by lookup-knowledge calibrate at ${base.fittedAt}`,
    });
    penalty = fit.penalty;
    // The model's own threshold: the best balanced accuracy of its gate on these questions.
    afterOutcomes = await gateOf({ ...base, fitted: { kind: "answerability-model", model: fit.model } });
    const best = fitReferenceThreshold(afterOutcomes);
    calibration = {
      ...base,
      fitted: { kind: "answerability-model", model: { ...fit.model, referenceThreshold: best.threshold } },
    };
    fitted = best.threshold;
  } else {
    const best = fitReferenceThreshold(beforeOutcomes);
    calibration = { ...base, fitted: { kind: "reference-threshold", referenceThreshold: best.threshold } };
    afterOutcomes = beforeOutcomes;
    fitted = best.threshold;
  }
  const afterThreshold = explicitThreshold ? configuredThreshold : fitted;
  if (explicitThreshold) {
    warn(
      `rag.reference-threshold is set in the settings (${configuredThreshold}), so lookups keep it; remove it to use the fitted ${fitted}.`,
    );
  }
  const thresholds = [...new Set([...tableThresholds, beforeThreshold, afterThreshold])].sort((a, b) => a - b);
  const before = figures(
    current?.status === "used" ? describeCalibration(current.calibration) : defaultLabel(identity.kind),
    beforeOutcomes,
    thresholds,
    beforeThreshold,
  );
  const after = figures(describeCalibration(calibration), afterOutcomes, thresholds, afterThreshold);
  const file = await writeCalibrationFile(identity.stateDirectory, calibration);
  return {
    calibration,
    file,
    store: identity.description,
    questions: { answerable, outOfScope, withoutHits },
    before,
    after,
    ...(penalty === undefined ? {} : { penalty }),
  };
}

async function currentCalibration(
  identity: ReturnType<typeof storeIdentity>,
  config: RagConfigInput | FlatRagConfig | undefined,
  warn: (message: string) => void,
): Promise<CalibrationState | undefined> {
  try {
    return (await resolveCalibration({ identity, ...(config ? { config } : {}), onWarning: warn })).state;
  } catch (error) {
    // A corrupt calibration is what calibrating replaces.
    if (LookupKnowledgeError.isInstance(error) && error.code === "invalid_calibration") {
      warn(`${error.message} It is replaced.`);
      return undefined;
    }
    throw error;
  }
}

function figures(label: string, outcomes: readonly QuestionOutcome[], thresholds: readonly number[], threshold: number): GateFigures {
  const rows = thresholdTradeOff(outcomes, thresholds);
  return { label, rows, inUse: rows.find((row) => row.threshold === threshold) as ThresholdRow };
}

function defaultLabel(kind: string): string {
  return kind === "local" ? answerabilityModelName(defaultAnswerabilityModel) : "uncalibrated";
}

function probeConfig(config: RagConfigInput | FlatRagConfig | undefined): FlatRagConfig {
  const rest = Object.fromEntries(
    Object.entries(config ?? {}).filter(([key]) => key !== "rag.reference-threshold" && key !== "referenceThreshold"),
  );
  return { ...(rest as FlatRagConfig), "rag.reference-threshold": 1 };
}

/** The threshold lookups on the store read their top score at, with the calibration in use (none when it is not used). */
async function thresholdInUse(
  options: Omit<Parameters<typeof openKnowledgeBase>[0], "calibration">,
  current: CalibrationState | undefined,
): Promise<number> {
  const knowledgeBase = await openKnowledgeBase({ ...options, calibration: current?.status === "used" ? current.calibration : false });
  try {
    return knowledgeBase.retriever.config.referenceThreshold;
  } finally {
    await knowledgeBase.close();
  }
}
