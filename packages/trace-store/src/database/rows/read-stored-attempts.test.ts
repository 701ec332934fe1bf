import type { AttemptOutcome } from "@lookup-knowledge/core";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { AttemptSummary } from "../../record/attempt-summary.js";
import { attemptOutcomes } from "../../record/attempt-outcomes.js";
import { readStoredAttempts } from "./read-stored-attempts.js";

const stored = { attempt: 1, candidateCount: 3, evidenceCount: 2, rejectedHits: 0, durationMs: 12 };

describe("readStoredAttempts", () => {
  it("issue 34: an attempt summary's outcome is core's AttemptOutcome, not any string", () => {
    expectTypeOf<AttemptSummary["outcome"]>().toEqualTypeOf<AttemptOutcome>();
    expect([...attemptOutcomes].sort()).toEqual(["error", "low_quality", "no_candidates", "no_evidence", "usable"]);
  });

  it("R27: attempts whose outcomes core knows come back as they were stored", () => {
    const attempts = attemptOutcomes.map((outcome, index) => ({ ...stored, attempt: index + 1, outcome }));
    const read = readStoredAttempts(attempts);
    expect(read).toEqual(attempts);
    for (const [index, attempt] of read.entries()) expect(attempt).toBe(attempts[index]);
  });

  it("R29: an outcome this version does not know is read as error, saying what was stored; the other fields are kept", () => {
    const [later, hostile, missing, failed] = readStoredAttempts([
      { ...stored, outcome: "timed_out", topScore: 0.4 },
      { ...stored, outcome: 7 },
      { ...stored },
      { ...stored, outcome: "gave_up", error: "search_failed: the port was down" },
    ]);
    expect(later).toEqual({
      ...stored,
      topScore: 0.4,
      outcome: "error",
      error: 'the stored outcome "timed_out" is not one of usable, no_candidates, no_evidence, low_quality, error',
    });
    expect(hostile?.error).toBe("the stored outcome 7 is not one of usable, no_candidates, no_evidence, low_quality, error");
    expect(missing).toMatchObject({ outcome: "error", error: expect.stringContaining("the stored outcome undefined") });
    expect(failed?.error).toBe(
      'search_failed: the port was down (the stored outcome "gave_up" is not one of usable, no_candidates, no_evidence, low_quality, error)',
    );
  });

  it("R29: an entry that is not an object is read as an error attempt numbered by its place, saying what was stored; the others are kept", () => {
    const known = { ...stored, outcome: "usable" };
    const read = readStoredAttempts([known, null, 7, "x", [known], undefined]);
    expect(read[0]).toBe(known);
    const broken = (attempt: number, what: string) => ({
      attempt,
      outcome: "error",
      candidateCount: 0,
      evidenceCount: 0,
      rejectedHits: 0,
      durationMs: 0,
      error: `the stored attempt ${what} is not an object`,
    });
    expect(read.slice(1)).toEqual([broken(2, "null"), broken(3, "7"), broken(4, '"x"'), broken(5, "array(1)"), broken(6, "undefined")]);
  });

  it("issue 37 item 1, R29: a topSource of the right shape, or none (an older record), reads as stored; any other is left out and named in the notes", () => {
    const page = { ...stored, outcome: "low_quality", topScore: 0.03, topSource: { source: "security/webhooks.md", title: "Webhooks" } };
    const older = { ...stored, outcome: "low_quality", topScore: 0.03 };
    const notes: string[] = [];
    const read = readStoredAttempts(
      [
        page,
        older,
        { ...older, topSource: "webhooks.md" },
        { ...older, topSource: { source: 5 } },
        { ...older, topSource: { source: "a.md", title: 3 } },
      ],
      notes,
    );
    expect(read[0]).toBe(page);
    expect(read[1]).toBe(older);
    expect(read.slice(2)).toEqual([older, older, older]);
    expect(notes).toEqual([
      'retrievalDetails.attempts[2].topSource is not { source, title? } (the stored value is "webhooks.md"); left out',
      "retrievalDetails.attempts[3].topSource is not { source, title? } (its source is 5); left out",
      "retrievalDetails.attempts[4].topSource is not { source, title? } (its title is 3); left out",
    ]);
  });
});
