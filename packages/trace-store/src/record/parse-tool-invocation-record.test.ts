import { describe, expect, it } from "vitest";
import { makeRecord } from "../../test/make-record.js";
import { parseToolInvocationRecord } from "./parse-tool-invocation-record.js";

const record = makeRecord(0, new Date(Date.UTC(2030, 0, 1)));
const line = (retrievalDetails: unknown): string => JSON.stringify({ ...record, retrievalDetails });

describe("parseToolInvocationRecord", () => {
  it("R27: a record as this version writes it is read whole, an outcome it does not know included", () => {
    expect(parseToolInvocationRecord(JSON.stringify(record))).toEqual({ record });
    const [first] = record.retrievalDetails.attempts;
    const later = line({ ...record.retrievalDetails, attempts: [{ ...first, outcome: "timed_out" }] });
    expect(parseToolInvocationRecord(later)).toHaveProperty("record");
  });

  it("R29: retrievalDetails.attempts that are missing, not a list, or hold an entry that is not an object are refused, naming the first", () => {
    const [first] = record.retrievalDetails.attempts;
    const { attempts: _attempts, ...withoutAttempts } = record.retrievalDetails;
    expect(parseToolInvocationRecord(line({ evidence: [] }))).toEqual({ reason: "retrievalDetails.attempts is not a list (undefined)" });
    expect(parseToolInvocationRecord(line(withoutAttempts))).toEqual({ reason: "retrievalDetails.attempts is not a list (undefined)" });
    expect(parseToolInvocationRecord(line({ ...record.retrievalDetails, attempts: null }))).toEqual({
      reason: "retrievalDetails.attempts is not a list (null)",
    });
    expect(parseToolInvocationRecord(line({ ...record.retrievalDetails, attempts: [first, null, 7] }))).toEqual({
      reason: "retrievalDetails.attempts.1 is not an object (null)",
    });
    expect(parseToolInvocationRecord(line({ ...record.retrievalDetails, attempts: [[first]] }))).toMatchObject({
      reason: expect.stringMatching(/^retrievalDetails\.attempts\.0 is not an object \(\[\{/),
    });
  });

  it("R29: retrievalDetails that is not an object is refused once, without a second reason for its attempts", () => {
    expect(parseToolInvocationRecord(line(null))).toEqual({ reason: "retrievalDetails is not an object" });
    expect(parseToolInvocationRecord(line([]))).toEqual({ reason: "retrievalDetails is not an object" });
  });
});
