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

  it("types codes: a package's union admits its codes and refuses one made up on the spot", () => {
    type Codes = "index_locked" | "corrupt_index";
    const error = new LookupKnowledgeError<Codes>({ code: "index_locked", message: "locked" });
    const code: Codes = error.code;
    expect(code).toBe("index_locked");
    // @ts-expect-error: "made_up" is not one of the package's codes
    expect(new LookupKnowledgeError<Codes>({ code: "made_up", message: "x" }).code).toBe("made_up");
    const subclassCode: "invalid_configuration" = new ConfigurationError({ key: "k", value: 1, reason: "r" }).code;
    expect(subclassCode).toBe("invalid_configuration");
  });
});
