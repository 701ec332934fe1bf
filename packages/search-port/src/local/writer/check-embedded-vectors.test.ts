import { describe, expect, it } from "vitest";
import { EmbedderMismatchError } from "../errors/embedder-mismatch-error.js";
import { checkEmbeddedVectors } from "./check-embedded-vectors.js";

const embedder = { id: "test/rows", version: "1", dimension: 4 };
const check = (answer: unknown, count = 2) => checkEmbeddedVectors(answer, count, "/tmp/index", embedder);

/** The error `check(answer)` throws: an EmbedderMismatchError, whose message is returned. */
function refusal(answer: unknown, count = 2): string {
  try {
    check(answer, count);
  } catch (error) {
    expect(EmbedderMismatchError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error("the answer was accepted");
}

describe("issue 36 item 4: checkEmbeddedVectors takes typed rows as it takes number arrays", () => {
  it("returns number[], Float32Array and Float64Array rows as given, without a copy", () => {
    const buffer = new Float32Array(8).fill(0.5);
    const rows = [buffer.subarray(0, 4), buffer.subarray(4, 8)];
    const checked = check(rows);
    expect(checked[0]).toBe(rows[0]);
    expect(checked[1]).toBe(rows[1]);
    const mixed = [[0.1, 0.2, 0.3, 0.4], new Float64Array([1, 0, 0, 0])];
    expect(check(mixed)).toEqual(mixed);
  });

  it("refuses a row of the wrong length, typed or not, with the same message", () => {
    expect(
      refusal([
        [1, 2, 3, 4],
        [1, 2, 3],
      ]),
    ).toMatch(/embedDocuments returned a vector of 3 dimensions, not 4/);
    expect(refusal([new Float32Array(4), new Float32Array(3)])).toMatch(/embedDocuments returned a vector of 3 dimensions, not 4/);
    expect(refusal([new Float32Array(4)])).toMatch(/embedDocuments returned 1 vectors for 2 texts/);
  });

  it("refuses NaN, Infinity and values that are not numbers, naming the value, its position and the vector", () => {
    expect(refusal([new Float32Array(4), new Float32Array([0, 0, Number.NaN, 0])])).toMatch(
      /a vector holding NaN at position 2 \(vector 1 of 2\), not a finite number/,
    );
    expect(
      refusal([
        [0, 0, 0, 0],
        [0, Number.NaN, 0, 0],
      ]),
    ).toMatch(/holding NaN at position 1 \(vector 1 of 2\)/);
    expect(refusal([new Float64Array([Number.POSITIVE_INFINITY, 0, 0, 0]), [0, 0, 0, 0]])).toMatch(
      /holding Infinity at position 0 \(vector 0 of 2\)/,
    );
    expect(
      refusal([
        [0, "1", 0, 0],
        [0, 0, 0, 0],
      ]),
    ).toMatch(/holding "1" at position 1 \(vector 0 of 2\)/);
    // A hole in a sparse array is no number either.
    expect(refusal([[0, 0, 0, 0], new Array(4)])).toMatch(/holding undefined at position 0 \(vector 1 of 2\)/);
  });

  it("refuses a row that is neither a number array nor a float typed array, naming its type", () => {
    expect(refusal([new Int8Array(4), [0, 0, 0, 0]])).toMatch(
      /a vector of type Int8Array \(vector 0 of 2\), not an array of numbers, a Float32Array or a Float64Array/,
    );
    expect(refusal([[0, 0, 0, 0], "0,0,0,0"])).toMatch(/a vector of type string \(vector 1 of 2\)/);
  });
});
