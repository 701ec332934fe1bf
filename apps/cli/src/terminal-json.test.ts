import { describe, expect, it } from "vitest";
import { terminalJson } from "./terminal-json.js";

describe("terminalJson: JSON for a terminal", () => {
  it("writes control and format characters as \\u escapes, and parses back to the same values", () => {
    const value = { text: "a\u009b2J b\u202ec\u200bd\u001b[0m e\u2028f", tag: "\u{e0041}x", lines: ["one", "two"] };
    const json = terminalJson(value);
    expect(json).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\p{Cf}\u2028\u2029]/u);
    expect(json).toContain("a\\u009b2J b\\u202ec\\u200bd\\u001b[0m e\\u2028f");
    expect(JSON.parse(json)).toEqual(value);
    expect(json.split("\n")).toHaveLength(JSON.stringify(value, null, 2).split("\n").length);
  });
});
