import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { lexicalTermIds } from "./lexical-terms.js";
import { TermNumbering } from "./term-numbering.js";

setFlagsFromString("--expose-gc");
/** A full garbage collection, from a fresh context where `--expose-gc` took effect. */
const collectGarbage = runInNewContext("gc") as () => void;

function arrayBufferBytes(): number {
  collectGarbage();
  return process.memoryUsage().arrayBuffers;
}

describe("lexicalTermIds: memory", () => {
  it("issue 36 review: the array the ids are gathered in is not kept after a very long text (memory bounded by what is kept, not by the longest text seen)", () => {
    lexicalTermIds("warm up", new TermNumbering());
    const before = arrayBufferBytes();
    // 2,000,000 terms: gathering them grows the array to 8 MB.
    const ids = lexicalTermIds("alpha beta gamma delta ".repeat(500_000), new TermNumbering());
    expect(ids.length).toBe(2_000_000);
    const grownBy = arrayBufferBytes() - before;
    expect(grownBy).toBeGreaterThan(7_000_000);
    // The result copied out is the caller's; once it is dropped, what stays is small.
    expect(arrayBufferBytes() - before - ids.byteLength).toBeLessThan(2_000_000);
  });
});
