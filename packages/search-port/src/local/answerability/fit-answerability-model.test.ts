import { describe, expect, it } from "vitest";
import { answerabilitySignalNames, fittedSignalNames, type AnswerabilitySignals } from "./answerability-signals.js";
import { scoreAnswerability } from "./answerability-model.js";
import { fitAnswerabilityModel } from "./fit-answerability-model.js";

describe("fitAnswerabilityModel", () => {
  const signals = (lexical: number, coverage: number): AnswerabilitySignals =>
    Object.fromEntries(
      answerabilitySignalNames.map((name) => [name, name === "lexical" ? lexical : name === "coverage" ? coverage : 0.5]),
    ) as AnswerabilitySignals;
  const examples = Array.from({ length: 40 }, (_, index) => {
    const answerable = index % 2 === 0;
    const jitter = ((index * 37) % 11) / 50;
    return { signals: signals(answerable ? 0.55 + jitter : 0.25 + jitter, 0.5 + jitter), answerable };
  });

  it("learns the signal that separates answerable from unanswerable examples, the same way every time", () => {
    const model = fitAnswerabilityModel(examples, { version: 3, fittedOn: "synthetic" });
    expect(model).toMatchObject({ kind: "logistic", version: 3, fittedOn: "synthetic" });
    expect(model.weights.lexical).toBeGreaterThan(0);
    expect(Math.abs(model.weights.coverage ?? 0)).toBeLessThan(model.weights.lexical ?? 0);
    expect(scoreAnswerability(model, signals(0.75, 0.6))).toBeGreaterThan(0.8);
    expect(scoreAnswerability(model, signals(0.2, 0.6))).toBeLessThan(0.2);
    expect(fitAnswerabilityModel(examples, { version: 3, fittedOn: "synthetic" })).toEqual(model);
  });

  it("weighs only the signals it is given, and heavier examples count more", () => {
    const model = fitAnswerabilityModel(examples, { version: 1, signals: ["coverage"] });
    expect(Object.keys(model.weights)).toEqual(["coverage"]);
    const even = fitAnswerabilityModel(examples, { version: 1, signals: ["lexical"] });
    const weighted = fitAnswerabilityModel(
      examples.map((example) => ({ ...example, weight: example.answerable ? 4 : 1 })),
      { version: 1, signals: ["lexical"] },
    );
    expect(scoreAnswerability(weighted, signals(0.4, 0.5))).toBeGreaterThan(scoreAnswerability(even, signals(0.4, 0.5)));
  });

  it("by default weighs every signal but terms (question length), even where length alone would separate the examples", () => {
    const byLength = examples.map((example) => ({
      ...example,
      signals: { ...example.signals, terms: example.answerable ? 3 : 2 },
    }));
    const model = fitAnswerabilityModel(byLength, { version: 1 });
    expect(Object.keys(model.weights).sort()).toEqual([...fittedSignalNames].sort());
    expect(model.weights.terms).toBeUndefined();
    expect(fittedSignalNames).toEqual(answerabilitySignalNames.filter((name) => name !== "terms"));
    const asked = fitAnswerabilityModel(byLength, { version: 1, signals: ["lexical", "terms"] });
    expect(Math.abs(asked.weights.terms ?? 0)).toBeGreaterThan(1);
  });

  it("keeps the weight of a signal that barely varies in the examples small, instead of fitting noise", () => {
    const noisy = examples.map((example, index) => ({
      ...example,
      signals: { ...example.signals, margin: 0.5 + (index % 2 === 0 ? 1e-4 : -1e-4) },
    }));
    const model = fitAnswerabilityModel(noisy, { version: 1, signals: ["lexical", "margin"] });
    expect(Math.abs((model.weights.margin ?? 0) * 2e-4)).toBeLessThan(0.05);
    expect(Math.abs(model.bias)).toBeLessThan(50);
  });

  it.each([
    ["a weight of 0", { weight: 0 }, /example 0: weight 0/],
    ["a negative weight", { weight: -1 }, /example 0: weight -1/],
    ["a signal that is not a number", { signals: { ...signals(0.5, 0.5), lexical: Number.NaN } }, /example 0: signal lexical is NaN/],
  ])("refuses an example with %s, naming it", (_, change, message) => {
    const [first, ...rest] = examples;
    expect(() => fitAnswerabilityModel([{ ...(first as (typeof examples)[number]), ...change }, ...rest], { version: 1 })).toThrow(message);
  });

  it("with interactions, learns a rule no single signal gives: answerable when lexical share and coverage are both high or both low", () => {
    const xor = Array.from({ length: 80 }, (_, index) => {
      const high = (index % 4) as 0 | 1 | 2 | 3;
      const jitter = ((index * 37) % 11) / 100;
      const lexical = high === 0 || high === 1 ? 0.85 - jitter : 0.15 + jitter;
      const coverage = high === 0 || high === 2 ? 0.85 - jitter : 0.15 + jitter;
      return { signals: signals(lexical, coverage), answerable: high === 0 || high === 3 };
    });
    const corners: Array<[number, number, boolean]> = [
      [0.8, 0.8, true],
      [0.2, 0.2, true],
      [0.8, 0.2, false],
      [0.2, 0.8, false],
    ];
    const paired = fitAnswerabilityModel(xor, { version: 1, signals: ["lexical", "coverage"], interactions: true });
    expect(Object.keys(paired.interactions ?? {})).toEqual(["lexical*coverage"]);
    for (const [lexical, coverage, answerable] of corners) {
      expect(scoreAnswerability(paired, signals(lexical, coverage)) > 0.5).toBe(answerable);
    }
    const plain = fitAnswerabilityModel(xor, { version: 1, signals: ["lexical", "coverage"] });
    expect(plain.interactions).toBeUndefined();
    const right = corners.filter(
      ([lexical, coverage, answerable]) => scoreAnswerability(plain, signals(lexical, coverage)) > 0.5 === answerable,
    );
    expect(right.length).toBeLessThan(4);
  });

  it("refuses to fit without two examples of each label", () => {
    expect(() =>
      fitAnswerabilityModel(
        examples.filter((example) => example.answerable),
        { version: 1 },
      ),
    ).toThrow(/at least 2 answerable and 2 unanswerable/);
  });
});
