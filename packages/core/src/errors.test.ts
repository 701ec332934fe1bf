import { describe, expect, it } from "vitest";
import { ConfigurationError, InvalidQueryError, LookupKnowledgeError, TimeoutError } from "./errors.js";

describe("errors", () => {
  it("recognises its errors by marker, not by prototype", () => {
    const error = new ConfigurationError({ key: "rag.return-n", value: "x", reason: "bad" });
    expect(LookupKnowledgeError.isInstance(error)).toBe(true);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect(InvalidQueryError.isInstance(error)).toBe(false);
    const copy = Object.assign(Object.create(null), { [Symbol.for("lookup-knowledge.error")]: true });
    expect(LookupKnowledgeError.isInstance(copy)).toBe(true);
    expect(LookupKnowledgeError.isInstance(new Error("x"))).toBe(false);
  });

  it("says whether a retry can help", () => {
    expect(new TimeoutError({ operation: "search port", timeoutMs: 5 }).retryable).toBe(true);
    expect(new InvalidQueryError({ value: "", reason: "empty" }).retryable).toBe(false);
  });
});
