import { answerabilitySignalNames, scoreAnswerability, type AnswerabilitySignals } from "@lookup-knowledge/search-port/local";
import { describe, expect, it } from "vitest";
import { fitOnDevelopment } from "./answerability-fit.js";
import type { AnswerabilitySample } from "./answerability-samples.js";
import { knowledgeBaseOf, leaveOneOut, operatingPointGrid, recallFirstThreshold, recallTarget } from "./leave-one-out.js";

function judged(set: string, scores: readonly number[], group: AnswerabilitySample["group"] = "answerable") {
  return scores.map((score, index) => ({
    sample: { set, asked: set, group, id: `${set}-${index}`, split: "dev" as const, topRelevant: false },
    score,
  }));
}

describe("recallFirstThreshold", () => {
  it("picks the highest threshold at which the answerable questions are found 97% of the time, averaged over the sets", () => {
    // Set a: every answer judged 0.6; set b: 49 of 50 at 0.6 and one at 0.1. At 0.6 the mean is
    // (1 + 0.98) / 2 = 0.99 >= 0.97, so 0.5 (the top of the grid) already reaches it.
    expect(recallFirstThreshold([...judged("a", Array(50).fill(0.6)), ...judged("b", [...Array(49).fill(0.6), 0.1])]).threshold).toBe(0.5);
    // Set b finds only 8 of 10 above 0.3: the mean reaches 0.97 only where b's low answers pass.
    const low = [...judged("a", Array(10).fill(0.9)), ...judged("b", [...Array(8).fill(0.9), 0.2, 0.12])];
    const chosen = recallFirstThreshold(low);
    expect(chosen.threshold).toBe(0.12);
    expect(chosen.found.find((entry) => entry.threshold === 0.13)?.found).toBeCloseTo(0.95, 10);
    expect(chosen.found.find((entry) => entry.threshold === 0.12)?.found).toBeGreaterThanOrEqual(recallTarget);
  });

  it("ignores the unanswerable questions, and falls to the grid's lowest threshold when none reaches the target", () => {
    const withOthers = [...judged("a", Array(10).fill(0.9)), ...judged("a", Array(10).fill(0.95), "near")];
    expect(recallFirstThreshold(withOthers).threshold).toBe(0.5);
    const hopeless = judged("a", [0.9, 0, 0, 0]);
    expect(recallFirstThreshold(hopeless).threshold).toBe(operatingPointGrid.at(-1));
  });
});

describe("knowledgeBaseOf", () => {
  it("reads the same pages in two languages as one knowledge base", () => {
    expect(knowledgeBaseOf("apisix-en")).toBe("apisix");
    expect(knowledgeBaseOf("apisix-zh")).toBe("apisix");
    expect(knowledgeBaseOf("sourcegraph-handbook")).toBe("sourcegraph-handbook");
  });
});

describe("leaveOneOut", () => {
  // Synthetic signals: answerable samples score higher on every signal, with a seeded spread.
  let seed = 7;
  const next = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const signals = (answerable: boolean): AnswerabilitySignals =>
    Object.fromEntries(answerabilitySignalNames.map((name) => [name, (answerable ? 0.5 : 0) + 0.5 * next()])) as AnswerabilitySignals;
  const samples: AnswerabilitySample[] = [];
  const add = (set: string, asked: string, group: AnswerabilitySample["group"], count: number) => {
    for (let index = 0; index < count; index += 1) {
      samples.push({
        set,
        asked,
        group,
        id: `${asked}-${group}-${index}`,
        split: index % 2 === 1 ? "dev" : "test",
        signals: signals(group === "answerable"),
        topRelevant: false,
      });
    }
  };
  for (const set of ["pages-en", "pages-zh", "handbook", "wiki"]) {
    add(set, set, "answerable", 12);
    add(set, set, "near", 6);
  }
  // Questions of the left-out base asked of another: they must not reach its fit either.
  add("handbook", "pages-zh", "cross", 8);
  add("pages-en", "wiki", "cross", 8);

  it("fits without every sample of the left-out base: its other language and its questions asked elsewhere", () => {
    const fits = leaveOneOut(samples, 9);
    const kept = samples.filter((sample) => !["pages"].includes(knowledgeBaseOf(sample.set)) && knowledgeBaseOf(sample.asked) !== "pages");
    const expected = fitOnDevelopment(kept, { version: 9, fittedOn: "development halves of handbook, wiki" });
    expect(fits.fitWithout("pages-en")).toEqual(expected);
    // The same base in the other language is the same fit, made once.
    expect(fits.fitWithout("pages-zh")).toBe(fits.fitWithout("pages-en"));
  });

  it("judges each set's samples of a half once, by a model fitted without that set's base", () => {
    const fits = leaveOneOut(samples, 9);
    const judged = fits.judgedLeftOut("dev");
    expect(judged.map((entry) => entry.sample)).toHaveLength(samples.filter((sample) => sample.split === "dev").length);
    const wiki = judged.filter((entry) => entry.sample.set === "wiki");
    const model = fits.fitWithout("wiki");
    expect(model.fittedOn).toBe("development halves of pages-en, pages-zh, handbook");
    expect(wiki.length).toBeGreaterThan(0);
    for (const entry of wiki) expect(entry.score).toBe(scoreAnswerability(model, entry.sample.signals as AnswerabilitySignals));
    const threshold = fits.fitWithoutAndChooseThreshold("wiki").referenceThreshold;
    expect(operatingPointGrid).toContain(threshold);
  });

  it("chooses a left-out base's threshold without its samples: changing them changes neither model nor threshold", () => {
    // Every wiki answer made to look hopeless, and its questions asked elsewhere dropped.
    const changed = samples
      .filter((sample) => sample.asked !== "wiki" || sample.set === "wiki")
      .map((sample) => (sample.set === "wiki" && sample.group === "answerable" ? { ...sample, signals: signals(false) } : sample));
    const before = leaveOneOut(samples, 9).fitWithoutAndChooseThreshold("wiki");
    expect(leaveOneOut(changed, 9).fitWithoutAndChooseThreshold("wiki")).toEqual(before);
    // The same change in a base that is kept does move the choice.
    const kept = samples.map((sample) =>
      sample.set === "handbook" && sample.group === "answerable" ? { ...sample, signals: signals(false) } : sample,
    );
    expect(leaveOneOut(kept, 9).fitWithoutAndChooseThreshold("wiki")).not.toEqual(before);
  });
});
