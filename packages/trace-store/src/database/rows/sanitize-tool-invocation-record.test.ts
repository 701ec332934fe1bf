import { describe, expect, it } from "vitest";
import { makeRecord } from "../../../test/make-record.js";
import { sanitizeToolInvocationRecord } from "./sanitize-tool-invocation-record.js";

describe("sanitizeToolInvocationRecord", () => {
  const base = new Date(Date.UTC(2024, 0, 1));

  it("R29: replaces NUL and lone surrogates with U+FFFD everywhere, keys included, and names the fields changed", () => {
    const record = makeRecord(0, base, { query: "a\u0000b", error: "\ud800x" });
    record.retrievalDetails.hints.keywords = ["ok", "\udc00"];
    record.retrievalDetails.attempts[0]!.filter = { "k\u0000": { $eq: "v" } };
    const sanitized = sanitizeToolInvocationRecord(record);
    expect(sanitized.query).toBe("a\ufffdb");
    expect(sanitized.error).toBe("\ufffdx");
    expect(sanitized.retrievalDetails.hints.keywords).toEqual(["ok", "\ufffd"]);
    expect(sanitized.retrievalDetails.attempts[0]?.filter).toEqual({ "k\ufffd": { $eq: "v" } });
    expect(sanitized.retrievalDetails.sanitizedFields).toEqual([
      "query",
      "error",
      "retrievalDetails.hints.keywords.1",
      "retrievalDetails.attempts.0.filter.k\ufffd",
    ]);
    expect(JSON.stringify(sanitized)).not.toMatch(/\\u0000|\\ud[89a-f]/);
    // The input is left alone.
    expect(record.query).toBe("a\u0000b");
  });

  it("R29: keeps surrogate pairs (emoji) and returns a clean record as it is", () => {
    const record = makeRecord(1, base, { query: "refund 💳 policy" });
    expect(sanitizeToolInvocationRecord(record)).toBe(record);
  });

  it("R29: lists at most 20 fields, then …", () => {
    const record = makeRecord(0, base);
    record.retrievalDetails.hints.keywords = Array.from({ length: 30 }, () => "\u0000");
    const fields = sanitizeToolInvocationRecord(record).retrievalDetails.sanitizedFields ?? [];
    expect(fields).toHaveLength(21);
    expect(fields.at(-1)).toBe("…");
  });
  it("R29: two keys that clean to the same key both stay: the later gets a suffix and is listed under it", () => {
    const record = makeRecord(0, base);
    // Three keys that all become "k\ufffd": one already clean, two with NUL or a lone surrogate.
    record.retrievalDetails.attempts[0]!.filter = {
      "k\u0000": { $eq: "nul" },
      "k\ufffd": { $eq: "clean" },
      "k\ud800": { $eq: "surrogate" },
    };
    const sanitized = sanitizeToolInvocationRecord(record);
    expect(sanitized.retrievalDetails.attempts[0]?.filter).toEqual({
      "k\ufffd~2": { $eq: "nul" },
      "k\ufffd": { $eq: "clean" },
      "k\ufffd~3": { $eq: "surrogate" },
    });
    expect(sanitized.retrievalDetails.sanitizedFields).toEqual([
      "retrievalDetails.attempts.0.filter.k\ufffd~2",
      "retrievalDetails.attempts.0.filter.k\ufffd~3",
    ]);
    // Two dirty keys and no clean one: the first keeps the cleaned name.
    record.retrievalDetails.attempts[0]!.filter = { "a\u0000": 1, "a\udc00": 2 };
    const second = sanitizeToolInvocationRecord(record);
    expect(second.retrievalDetails.attempts[0]?.filter).toEqual({ "a\ufffd": 1, "a\ufffd~2": 2 });
    expect(second.retrievalDetails.sanitizedFields).toEqual([
      "retrievalDetails.attempts.0.filter.a\ufffd",
      "retrievalDetails.attempts.0.filter.a\ufffd~2",
    ]);
  });

  it('R29: a "__proto__" key of a cleaned object stays an own key', () => {
    const record = makeRecord(0, base);
    record.retrievalDetails.attempts[0]!.filter = JSON.parse('{"__proto__": {"polluted": true}, "x\\u0000": 1}') as never;
    const filter = sanitizeToolInvocationRecord(record).retrievalDetails.attempts[0]?.filter as Record<string, unknown>;
    expect(Object.keys(filter)).toEqual(["__proto__", "x\ufffd"]);
    expect(Object.getPrototypeOf(filter)).toBe(Object.prototype);
  });
});
