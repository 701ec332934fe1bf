import { describe, expect, expectTypeOf, it } from "vitest";
import type { Json } from "./json.js";

// Type-level: `tsc -p tsconfig.tests.json` (root) fails when one of these does not hold; the
// runtime halves show that JSON really does what the types say.
const roundTrip = <T>(value: T): Json<T> => JSON.parse(JSON.stringify(value)) as Json<T>;

describe("Json", () => {
  it("issue 34: a Date is sent as its ISO string, a Map or Set as an empty object", () => {
    const sent = roundTrip({ at: new Date(0), seen: new Map([["a", 1]]), tags: new Set(["x"]) });
    expectTypeOf(sent).toEqualTypeOf<{ at: string; seen: Record<string, never>; tags: Record<string, never> }>();
    expect(sent).toEqual({ at: "1970-01-01T00:00:00.000Z", seen: {}, tags: {} });
  });

  it("issue 34: properties holding functions or undefined are left out; an optional property stays optional", () => {
    const value: { name: string; note?: string; gone: undefined; call: () => void } = { name: "a", gone: undefined, call: () => undefined };
    const sent = roundTrip(value);
    expectTypeOf(sent).toEqualTypeOf<{ name: string; note?: string }>();
    expect(sent).toEqual({ name: "a" });
  });

  it("issue 34: in an array, undefined and functions become null; nested values are mapped too", () => {
    const sent = roundTrip({ list: [new Date(0)], holes: [undefined, () => 1] as [undefined, () => number] });
    expectTypeOf(sent).toEqualTypeOf<{ list: string[]; holes: [null, null] }>();
    expect(sent).toEqual({ list: ["1970-01-01T00:00:00.000Z"], holes: [null, null] });
  });

  it("issue 34: plain JSON data is its own JSON: unions, literals, records and unknown are kept", () => {
    type Plain =
      | { found: true; blocks: Array<{ key: string; score?: number }> }
      | { found: false; reason: "none" | null; extra: Record<string, unknown> };
    expectTypeOf<Json<Plain>>().toEqualTypeOf<Plain>();
    expectTypeOf<Json<unknown>>().toEqualTypeOf<unknown>();
  });
});
