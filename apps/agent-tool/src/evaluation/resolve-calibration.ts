import type { FlatRagConfig, RagConfigInput } from "@lookup-knowledge/core";
import { answerabilityModelName, type AnswerabilityModel } from "@lookup-knowledge/search-port/local";
import type { StoreIdentity } from "../open-search-store.js";
import { setsReferenceThreshold } from "../retriever/sets-reference-threshold.js";
import { calibrationFilePath, readCalibrationFile, type Calibration } from "./calibration-file.js";

/** The calibration a knowledge base was opened with, and whether its lookups use it. */
export interface CalibrationState {
  /** The file it came from; absent for one passed in code. */
  file?: string;
  calibration: Calibration;
  /**
   * `used`; `overridden`: a reference threshold the settings set explicitly wins;
   * `ignored`: fitted for another store or embedder (see `note`).
   */
  status: "used" | "overridden" | "ignored";
  note?: string;
}

/** What a knowledge base's port and retriever are opened with once the calibration is applied. */
export interface AppliedCalibration {
  /** The local index's answerability model, when the calibration fitted one. */
  answerability?: AnswerabilityModel;
  /** The retriever's settings, with the fitted reference threshold when the settings did not set one. */
  config?: RagConfigInput | FlatRagConfig;
  state?: CalibrationState;
}

/**
 * Applies a store's calibration (the one in its state folder, or `given`) to the settings: a
 * local index's answerability model goes to the port; a fitted reference threshold goes to
 * the retriever unless the settings set `rag.reference-threshold` themselves. A calibration
 * fitted for another store, another embedder or a kind of store that does not use it is
 * ignored, and `onWarning` says so.
 */
export async function resolveCalibration(input: {
  identity: StoreIdentity;
  config?: RagConfigInput | FlatRagConfig;
  given?: Calibration | false;
  onWarning: (message: string) => void;
}): Promise<AppliedCalibration> {
  const { identity, config } = input;
  if (input.given === false) return config ? { config } : {};
  const file = input.given ? undefined : calibrationFilePath(identity.stateDirectory);
  const calibration = input.given ?? (await readCalibrationFile(identity.stateDirectory));
  if (!calibration) return config ? { config } : {};
  const where = file ? `The calibration in ${file}` : "The calibration given";
  const mismatch = mismatchOf(calibration, identity);
  if (mismatch !== undefined) {
    const note = `${mismatch}; run \`lookup-knowledge calibrate\` again for this store`;
    input.onWarning(`${where} is ignored: ${note}.`);
    return { ...(config ? { config } : {}), state: { ...(file ? { file } : {}), calibration, status: "ignored", note } };
  }
  const fitted = calibration.fitted;
  if (fitted.kind === "answerability-model") {
    // The model goes to the port, which names its threshold to the retriever; settings that set one win.
    const threshold = fitted.model.referenceThreshold;
    const note =
      threshold !== undefined && setsReferenceThreshold(config)
        ? `rag.reference-threshold is set in the settings, so the model's fitted threshold ${threshold} is not used`
        : undefined;
    return {
      answerability: fitted.model,
      ...(config ? { config } : {}),
      state: { ...(file ? { file } : {}), calibration, status: "used", ...(note ? { note } : {}) },
    };
  }
  if (setsReferenceThreshold(config)) {
    const note = `rag.reference-threshold is set in the settings, so the fitted ${fitted.referenceThreshold} is not used`;
    return { ...(config ? { config } : {}), state: { ...(file ? { file } : {}), calibration, status: "overridden", note } };
  }
  return {
    config: { ...config, "rag.reference-threshold": fitted.referenceThreshold },
    state: { ...(file ? { file } : {}), calibration, status: "used" },
  };
}

/** A one-line description of what a calibration fitted: `answerability-logistic@1001` or `reference threshold 0.42`. */
export function describeCalibration(calibration: Calibration): string {
  const fitted = calibration.fitted;
  return fitted.kind === "answerability-model" ? answerabilityModelName(fitted.model) : `reference threshold ${fitted.referenceThreshold}`;
}

function mismatchOf(calibration: Calibration, identity: StoreIdentity): string | undefined {
  if (calibration.store.key !== identity.key || calibration.store.kind !== identity.kind) {
    return `it was fitted for the ${calibration.store.description}, not the ${identity.description}`;
  }
  const fitted = embedderName(calibration.embedder);
  const current = embedderName(identity.embedder);
  if (fitted !== current) return `it was fitted with the embedder ${fitted}, and this store embeds with ${current}`;
  const wanted = identity.kind === "local" ? "answerability-model" : "reference-threshold";
  if (calibration.fitted.kind !== wanted) return `it holds a ${calibration.fitted.kind}, and the ${identity.description} uses a ${wanted}`;
  return undefined;
}

function embedderName(embedder: { id: string; version?: string; dimension?: number }): string {
  return `${embedder.id}${embedder.version === undefined ? "" : `@${embedder.version}`}${embedder.dimension === undefined ? "" : ` (${embedder.dimension} dimensions)`}`;
}
