import { describe, expect, it } from "vitest";
import { classifyAttempt, fallbackReasonOf, leftOutShare, topEvidenceScore } from "./classify-attempt.js";

const threshold = 0.35;

describe("classifyAttempt", () => {
  it("R8: no candidates, or candidates that left no evidence block", () => {
    expect(classifyAttempt({ candidateCount: 0, evidenceCount: 0, topScore: undefined, referenceThreshold: threshold })).toBe(
      "no_candidates",
    );
    expect(classifyAttempt({ candidateCount: 3, evidenceCount: 0, topScore: undefined, referenceThreshold: threshold })).toBe(
      "no_evidence",
    );
  });

  it("R9: evidence below rag.reference-threshold is low quality; at or above it, usable", () => {
    expect(classifyAttempt({ candidateCount: 3, evidenceCount: 2, topScore: 0.349, referenceThreshold: threshold })).toBe("low_quality");
    expect(classifyAttempt({ candidateCount: 3, evidenceCount: 2, topScore: 0.35, referenceThreshold: threshold })).toBe("usable");
    // Evidence without any score (a port that gives none) is not judged low.
    expect(classifyAttempt({ candidateCount: 1, evidenceCount: 1, topScore: undefined, referenceThreshold: threshold })).toBe("usable");
  });

  it("takes the best score of the surviving evidence", () => {
    const block = (score?: number) => ({ score }) as Parameters<typeof topEvidenceScore>[0][number];
    expect(topEvidenceScore([block(0.2), block(), block(0.7), block(0.4)])).toBe(0.7);
    expect(topEvidenceScore([block()])).toBeUndefined();
    expect(topEvidenceScore([])).toBeUndefined();
  });

  it("R8, R9: names why a filtered attempt was retried", () => {
    expect(fallbackReasonOf("error")).toBe("filtered_vector_error");
    expect(fallbackReasonOf("low_quality")).toBe("filtered_vector_low_quality");
    expect(fallbackReasonOf("no_candidates")).toBe("filtered_vector_no_evidence");
    expect(fallbackReasonOf("no_evidence")).toBe("filtered_vector_no_evidence");
  });

  it("R9, R12: only an L0-filtered attempt that kept under 0.95 of its scope's best match left too much out, and it is low quality", () => {
    const judged = (filterShare?: number) => ({
      score: 0.9,
      model: "answerability-logistic@1",
      signals: filterShare === undefined ? {} : { filterShare },
    });
    const l0Filter = { category: { $eq: "billing" } };
    expect(leftOutShare({ l0Filter, answerability: judged(0.6) })).toBe(0.6);
    expect(leftOutShare({ l0Filter, answerability: judged(0.95) })).toBeUndefined();
    expect(leftOutShare({ answerability: judged(0.6) })).toBeUndefined();
    expect(leftOutShare({ l0Filter, answerability: judged() })).toBeUndefined();
    const usableInput = { candidateCount: 3, evidenceCount: 2, topScore: 0.9, referenceThreshold: threshold };
    expect(classifyAttempt({ ...usableInput, leftOutShare: 0.6 })).toBe("low_quality");
    expect(classifyAttempt(usableInput)).toBe("usable");
  });
});
