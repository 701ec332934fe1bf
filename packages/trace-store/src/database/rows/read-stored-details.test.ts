import { describe, expect, it } from "vitest";
import { makeRecord } from "../../../test/make-record.js";
import { readStoredDetails } from "./read-stored-details.js";

const details = makeRecord(0, new Date(Date.UTC(2030, 0, 1))).retrievalDetails;

describe("readStoredDetails", () => {
  it("R27: details as this version writes them come back as stored, without readNotes", () => {
    const read = readStoredDetails(details);
    expect(read).toEqual(details);
    expect(read).not.toHaveProperty("readNotes");
  });

  it("R29: attempts that are missing or not a list are read as none, named in readNotes; the other fields are kept", () => {
    expect(readStoredDetails({ evidence: [] })).toEqual({
      evidence: [],
      attempts: [],
      readNotes: ["retrievalDetails.attempts is missing; read as []"],
    });
    for (const [attempts, what] of [
      ["none", '"none"'],
      [null, "null"],
      [3, "3"],
      [{ 0: details.attempts[0] }, "object"],
    ] as const) {
      expect(readStoredDetails({ ...details, attempts })).toEqual({
        ...details,
        attempts: [],
        readNotes: [`retrievalDetails.attempts is not a list (the stored value is ${what}); read as []`],
      });
    }
  });

  it("R29: details that are not an object are read as { attempts: [] }, named in readNotes", () => {
    for (const [stored, what] of [
      [null, "null"],
      [[], "array(0)"],
      ["text", '"text"'],
      [7, "7"],
    ] as const) {
      expect(readStoredDetails(stored)).toEqual({
        attempts: [],
        readNotes: [`retrievalDetails is not an object (the stored value is ${what}); read as { attempts: [] }`],
      });
    }
  });

  it("R29: the row's notes are added after the stored ones (a list) and the attempts' one; stored notes that are not a list are left out", () => {
    expect(readStoredDetails(details, ["createdAt: odd"]).readNotes).toEqual(["createdAt: odd"]);
    expect(readStoredDetails({ ...details, attempts: "none", readNotes: ["earlier"] }, ["createdAt: odd"]).readNotes).toEqual([
      "earlier",
      'retrievalDetails.attempts is not a list (the stored value is "none"); read as []',
      "createdAt: odd",
    ]);
    expect(readStoredDetails({ ...details, attempts: "none", readNotes: 5 }).readNotes).toEqual([
      'retrievalDetails.attempts is not a list (the stored value is "none"); read as []',
    ]);
    expect(readStoredDetails(null, ["createdAt: odd"]).readNotes).toHaveLength(2);
  });
});
