import { emptyL0Hints, type AttemptOutcome } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { retrieveWithFallback } from "./retrieve-with-fallback.js";
import type { AttemptInput, AttemptRun } from "./run-attempt.js";

/** A stand-in attempt runner that answers with the given outcomes in turn and keeps its inputs. */
function scripted(outcomes: AttemptOutcome[]) {
  const inputs: AttemptInput[] = [];
  const run = async (input: AttemptInput): Promise<AttemptRun> => {
    inputs.push(input);
    const outcome = outcomes[inputs.length - 1] ?? "usable";
    return {
      trace: {
        attempt: input.attempt,
        query: input.query,
        topK: 20,
        candidateCount: 0,
        evidenceCount: 0,
        outcome,
        rejectedHits: [],
        durationMs: 0,
      },
      usable: outcome === "usable",
      rejectedHits: 0,
    };
  };
  return { run, inputs };
}

const l0Filter = { category: { $eq: "billing" } };
const callerFilter = { tenant: { $eq: "acme" } };
const base = { transformedQuery: "refund refunds", normalizedQuery: "refund", hints: emptyL0Hints() };

describe("retrieveWithFallback", () => {
  it("R10: a usable filtered first attempt is final", async () => {
    const { run, inputs } = scripted(["usable"]);
    const outcome = await retrieveWithFallback(run, { ...base, l0Filter });
    expect(outcome.attempts).toHaveLength(1);
    expect(outcome.fallbackReason).toBeUndefined();
    expect(inputs[0]).toMatchObject({ attempt: 1, query: "refund refunds", rawQuery: "refund", l0Filter });
  });

  it.each([
    ["no_candidates", "filtered_vector_no_evidence"],
    ["no_evidence", "filtered_vector_no_evidence"],
    ["low_quality", "filtered_vector_low_quality"],
    ["error", "filtered_vector_error"],
  ] as const)("R8, R9: a filtered attempt with %s is retried once, unfiltered and with the raw query (%s)", async (first, reason) => {
    const { run, inputs } = scripted([first, "low_quality"]);
    const outcome = await retrieveWithFallback(run, { ...base, l0Filter, callerFilter });
    expect(outcome.attempts.map((attempt) => attempt.trace.outcome)).toEqual([first, "low_quality"]);
    expect(outcome.fallbackReason).toBe(reason);
    expect(inputs[1]).toMatchObject({ attempt: 2, query: "refund", rawQuery: "refund", callerFilter });
    expect(inputs[1]).not.toHaveProperty("l0Filter");
  });

  it("R8, R9: only a filtered attempt is retried; an unfiltered one is final, whatever its outcome", async () => {
    const { run, inputs } = scripted(["low_quality"]);
    const outcome = await retrieveWithFallback(run, base);
    expect(outcome.attempts).toHaveLength(1);
    expect(outcome.fallbackReason).toBeUndefined();
    expect(inputs).toHaveLength(1);
  });

  it("R12: the caller's filter is on every attempt", async () => {
    const { run, inputs } = scripted(["no_candidates", "usable"]);
    await retrieveWithFallback(run, { ...base, l0Filter, callerFilter });
    expect(inputs.map((input) => input.callerFilter)).toEqual([callerFilter, callerFilter]);
  });
});
