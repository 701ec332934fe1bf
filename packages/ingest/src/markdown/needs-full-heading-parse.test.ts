import { describe, expect, it } from "vitest";
import { formerHeadingTrigger } from "../../test/full-heading-text.js";
import { mayHoldInlineSyntax } from "./may-hold-inline-syntax.js";
import { needsFullHeadingParse } from "./needs-full-heading-parse.js";

/**
 * The decision as `headingText` made it before it was one rule (at 7b453d8): each run tested
 * against the former rule and `mayHoldInlineSyntax`, then NUL and hard breaks as a case of their own.
 */
function separateTests(runs: readonly string[], markdown: string, cleaned: boolean): boolean {
  let mayHoldSyntax = false;
  let formerRule = false;
  for (const value of runs) {
    if (!mayHoldSyntax && (cleaned ? formerHeadingTrigger.test(value) : mayHoldInlineSyntax(value))) mayHoldSyntax = true;
    if (!formerRule && formerHeadingTrigger.test(value)) formerRule = true;
  }
  if (!mayHoldSyntax && formerRule && /\0| {2}[\r\n]/.test(markdown)) mayHoldSyntax = true;
  return mayHoldSyntax;
}

describe("issue 36 item 6: needsFullHeadingParse", () => {
  it("sends emphasis, links and escapes; not `_` inside a word, `{`, `!` or a bare `&` in a heading the cleaning left alone", () => {
    expect(needsFullHeadingParse(["a *b*"], "## a *b*", false)).toBe(true);
    expect(needsFullHeadingParse(["see ", "[x](y)"], "## see [x](y)", false)).toBe(true);
    expect(needsFullHeadingParse(["limit_req {#anchor} Q&A!"], "## limit_req {#anchor} Q&A!", false)).toBe(false);
    expect(needsFullHeadingParse([], "## `code`", false)).toBe(false);
  });

  it("sends a heading the cleaning changed when a run holds any character of the former rule (the `{` of a shortcode)", () => {
    expect(needsFullHeadingParse(["a {x} b"], "## a {x} b", true)).toBe(true);
    expect(needsFullHeadingParse(["plain words"], "## plain words", true)).toBe(false);
  });

  it("issue 36 review: sends a NUL or a hard break only beside a character of the former rule", () => {
    expect(needsFullHeadingParse(["limit_req\u0000"], "## limit_req\u0000", false)).toBe(true);
    expect(needsFullHeadingParse(["Q&A  \nnext"], "Q&A  \nnext", false)).toBe(true);
    expect(needsFullHeadingParse(["a_b"], "## a_b `x\u0000`", false)).toBe(true);
    expect(needsFullHeadingParse(["plain\u0000"], "## plain\u0000", false)).toBe(false);
    expect(needsFullHeadingParse(["plain  \nnext"], "plain  \nnext", false)).toBe(false);
  });

  it("gives the decision of the separate tests it replaced on random runs of syntax characters, cleaned or not", () => {
    const pieces = [
      "a",
      "B",
      "1",
      " ",
      "_",
      "*",
      "[",
      "]",
      "!",
      "&",
      "#",
      ";",
      "\\",
      "~",
      "<",
      "{",
      "}",
      "\u0000",
      "  \n",
      "\r",
      "é",
      "中",
    ];
    // A fixed linear congruential sequence: the same strings on every run.
    let seed = 3613;
    const next = (bound: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((seed / 2_147_483_648) * bound);
    };
    const outcomes = new Set<boolean>();
    // Decisions made by the NUL and hard-break case alone: the case the rule folds in is exercised.
    let byBreaks = 0;
    for (let round = 0; round < 20_000; round += 1) {
      const runs: string[] = [];
      for (let run = 0, count = next(4); run < count; run += 1) {
        let text = "";
        for (let index = 0, length = 1 + next(6); index < length; index += 1) text += pieces[next(pieces.length)];
        runs.push(text);
      }
      const markdown = `## ${runs.join(next(3) === 0 ? "`\u0000`" : " ")}`;
      const cleaned = next(4) === 0;
      const expected = separateTests(runs, markdown, cleaned);
      outcomes.add(expected);
      if (expected && !cleaned && !runs.some((run) => mayHoldInlineSyntax(run))) byBreaks += 1;
      expect({ runs, markdown, cleaned, full: needsFullHeadingParse(runs, markdown, cleaned) }).toEqual({
        runs,
        markdown,
        cleaned,
        full: expected,
      });
    }
    expect([...outcomes].sort()).toEqual([false, true]);
    expect(byBreaks).toBeGreaterThan(100);
  });
});
