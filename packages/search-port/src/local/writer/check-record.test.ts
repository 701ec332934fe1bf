import { describe, expect, it } from "vitest";
import { InvalidWriteError } from "../../invalid-write-error.js";
import { checkRecord } from "./check-record.js";

describe("checkRecord", () => {
  it("returns the id, content and metadata of a record, and nothing else", () => {
    const input = { id: "a#chunk-0", content: "text", metadata: { docId: "a" }, extra: true };
    expect(checkRecord(input, 0)).toEqual({ id: "a#chunk-0", content: "text", metadata: { docId: "a" } });
  });

  it("issue 36 review: takes ids and document ids of characters beyond the BMP (surrogates in pairs)", () => {
    expect(checkRecord({ id: "a\u{1F600}", content: "x", metadata: { docId: "\u{1F600}" } }, 0).id).toBe("a\u{1F600}");
  });

  it.each([
    [null, "invalid_record", /upsert: record 2 is not an object/],
    [{ id: "", content: "x", metadata: {} }, "invalid_record", /record 2 needs a non-empty string id \(got ""\)/],
    [{ id: "a", content: 3, metadata: {} }, "invalid_record", /record 2 \(a\) needs string content/],
    [{ id: "a", content: "x", metadata: [] }, "invalid_record", /record 2 \(a\) needs a metadata object/],
    // issue 36 review: a lone surrogate is written as U+FFFD, so the stored id would never match the id upserted again.
    [
      { id: "a\ud800", content: "x", metadata: {} },
      "invalid_record",
      /record 2 has an id that is not well-formed Unicode \(a lone surrogate\): "a\\ud800"/,
    ],
    [
      { id: "a", content: "x", metadata: { docId: "\udc00d" } },
      "invalid_record",
      /record 2 \(a\) has a docId that is not well-formed Unicode \(a lone surrogate\): "\\udc00d"/,
    ],
  ])("refuses %j with an InvalidWriteError naming the record", (input, code, message) => {
    expect(() => checkRecord(input, 2)).toThrow(message);
    try {
      checkRecord(input, 2);
    } catch (error) {
      expect(InvalidWriteError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code, operation: "upsert" });
    }
  });
});
