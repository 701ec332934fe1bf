import type { AnswerabilitySignals } from "@lookup-knowledge/search-port/local";
import { describe, expect, it } from "vitest";
import type { AnswerabilitySample, SampleGroup } from "./answerability-samples.js";
import { questionLengthLines, questionLengths } from "./question-lengths.js";

const sample = (set: string, group: SampleGroup, distinctTerms: number | undefined): AnswerabilitySample => ({
  set,
  asked: set,
  group,
  id: `${set}-${group}-${distinctTerms}`,
  split: "dev",
  topRelevant: false,
  ...(distinctTerms === undefined ? {} : { signals: { terms: Math.log1p(distinctTerms) } as AnswerabilitySignals }),
});

describe("questionLengths", () => {
  const samples = [
    sample("docs", "answerable", 10),
    sample("docs", "answerable", 14),
    sample("docs", "near", 6),
    sample("docs", "near", undefined),
    sample("other", "cross", 20),
  ];

  it("averages each group's distinct terms per set, leaving out searches without hits and groups without questions", () => {
    const [docs, other] = questionLengths(samples);
    expect(docs?.set).toBe("docs");
    expect(docs?.lengths.answerable).toBeCloseTo(12, 9);
    expect(docs?.lengths.near).toBeCloseTo(6, 9);
    expect(docs?.lengths.cross).toBeUndefined();
    expect(other?.lengths).toEqual({ cross: expect.closeTo(20, 9) });
  });

  it("prints one line per set", () => {
    expect(questionLengthLines(samples)).toEqual(["  docs: answerable 12.0, near 6.0", "  other: cross 20.0"]);
  });
});
