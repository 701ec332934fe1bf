import type { AnswerabilityModel } from "@lookup-knowledge/search-port/local";
import { describe, expect, it } from "vitest";
import { storeIdentity } from "../open-search-store.js";
import type { Calibration } from "./calibration-file.js";
import { resolveCalibration } from "./resolve-calibration.js";

const identity = storeIdentity({ kind: "local" }, "/nonexistent/lookup-knowledge-data");

function localCalibration(model: AnswerabilityModel): Calibration {
  return {
    version: 1,
    store: { kind: identity.kind, description: identity.description, key: identity.key },
    embedder: { ...(identity.embedder as Calibration["embedder"]) },
    fittedAt: "2026-12-06T05:00:00.000Z",
    questions: { file: "questions.jsonl", answerable: 12, outOfScope: 10 },
    fitted: { kind: "answerability-model", model },
  };
}

const model: AnswerabilityModel = { kind: "logistic", version: 1001, bias: -1, weights: { lexical: 2 }, referenceThreshold: 0.25 };

describe("resolveCalibration of a local index's model (decision 0004)", () => {
  it("R9: passes the model, threshold and all, to the port, and leaves the settings alone so the port's threshold applies", async () => {
    const applied = await resolveCalibration({ identity, given: localCalibration(model), onWarning: () => {} });
    expect(applied.answerability).toEqual(model);
    expect(applied.answerability?.referenceThreshold).toBe(0.25);
    expect(applied.config).toBeUndefined();
    expect(applied.state).toMatchObject({ status: "used" });
    expect(applied.state?.note).toBeUndefined();
  });

  it("R9: a threshold in the settings wins over the model's, and the state says the fitted one is not used", async () => {
    for (const config of [{ "rag.reference-threshold": 0.4 }, { referenceThreshold: 0.4 }]) {
      const applied = await resolveCalibration({ identity, config, given: localCalibration(model), onWarning: () => {} });
      expect(applied.config).toEqual(config);
      expect(applied.state).toMatchObject({ status: "used" });
      expect(applied.state?.note).toMatch(
        /rag\.reference-threshold is set in the settings, so the model's fitted threshold 0\.25 is not used/,
      );
    }
  });

  it("a model from before models kept a threshold is used as it is, with nothing said about a threshold", async () => {
    const { referenceThreshold: _dropped, ...older } = model;
    const applied = await resolveCalibration({
      identity,
      config: { "rag.reference-threshold": 0.4 },
      given: localCalibration(older),
      onWarning: () => {},
    });
    expect(applied.answerability).not.toHaveProperty("referenceThreshold");
    expect(applied.state?.note).toBeUndefined();
  });
});
