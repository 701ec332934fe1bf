import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { describeRowKind, isEmbeddedRow } from "./embedded-row.js";

describe("issue 36 item 4: the rows an embedder may answer", () => {
  it("takes number arrays, Float32Array and Float64Array rows (views too), and no other typed array", () => {
    const buffer = new Float32Array(8);
    for (const row of [[0.1, 0.2], new Float32Array(2), buffer.subarray(2, 4), new Float64Array(3)]) {
      expect(isEmbeddedRow(row)).toBe(true);
    }
    for (const row of [new Int8Array(2), new Uint8Array(2), new DataView(new ArrayBuffer(4)), "0.1,0.2", null, undefined, { length: 2 }]) {
      expect(isEmbeddedRow(row)).toBe(false);
    }
  });

  it("takes a Float32Array made in another realm (a vm context)", () => {
    const foreign: unknown = runInNewContext("new Float32Array([0.5, 0.25])");
    expect(foreign instanceof Float32Array).toBe(false);
    expect(isEmbeddedRow(foreign)).toBe(true);
  });

  it("names what a value that is not a row is", () => {
    expect(describeRowKind(new Int8Array(1))).toBe("Int8Array");
    expect(describeRowKind("text")).toBe("string");
    expect(describeRowKind(null)).toBe("null");
    expect(describeRowKind(undefined)).toBe("undefined");
  });
});
