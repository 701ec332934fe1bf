import { describe, expect, it } from "vitest";
import { createLookupKnowledgeInputSchema, lookupKnowledgeInputSchema } from "./lookup-knowledge-input-schema.js";
import { parseToolArguments } from "./parse-tool-arguments.js";

const bounded = createLookupKnowledgeInputSchema({ maxQueryChars: 10, callerFilter: true });
const problemsOf = (args: unknown, schema = bounded) => {
  const parsed = parseToolArguments(schema, args);
  return parsed.success ? undefined : parsed.problems;
};

describe("parseToolArguments (the words of every face's argument errors)", () => {
  it("R2: takes a query with text, and a filter object where the face allows one", () => {
    expect(parseToolArguments(lookupKnowledgeInputSchema, { query: "refund window" })).toEqual({
      success: true,
      data: { query: "refund window" },
    });
    expect(parseToolArguments(bounded, { query: "refund", filter: { category: { $eq: "billing" } } })).toEqual({
      success: true,
      data: { query: "refund", filter: { category: { $eq: "billing" } } },
    });
  });

  it.each([
    [{ q: "refund" }, 'query is missing; unknown argument "q"'],
    [{}, "query is missing"],
    [{ query: "" }, "query must contain text"],
    [{ query: " \n\t" }, "query must contain text"],
    [{ query: 42 }, "query must be a string"],
    [{ query: null }, "query must be a string"],
    [{ query: "x".repeat(11) }, "query is too long (11 characters; at most 10)"],
    [{ query: "refund", filter: "billing" }, "filter must be an object"],
    [{ query: "refund", filter: [] }, "filter must be an object"],
    [{ query: "refund", a: 1, b: 2 }, 'Unknown arguments "a", "b"'],
    ["refund", "The arguments must be an object"],
    [null, "The arguments must be an object"],
    [["refund"], "The arguments must be an object"],
  ])("R2: %j is refused with %j", (args, problems) => {
    expect(problemsOf(args)).toBe(problems);
  });

  it("names at most five unknown arguments, each shortened to 40 characters, and never echoes a value", () => {
    const long = "k".repeat(60);
    const problems = problemsOf({ query: { secret: "hunter2" }, a: 1, b: 2, c: 3, d: 4, [long]: 5, f: 6 });
    expect(problems).toBe(`query must be a string; unknown arguments "a", "b", "c", "d", "${"k".repeat(39)}…", ...`);
    expect(problemsOf({ query: "secret-value-that-is-too-long" })).not.toContain("secret");
  });

  it("the LangChain tool's schema has no length bound and no filter", () => {
    expect(problemsOf({ query: "x".repeat(100_000) }, lookupKnowledgeInputSchema)).toBeUndefined();
    expect(problemsOf({ query: "refund", filter: {} }, lookupKnowledgeInputSchema)).toBe('Unknown argument "filter"');
  });
});
