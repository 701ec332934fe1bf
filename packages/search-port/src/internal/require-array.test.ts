import { describe, expect, it } from "vitest";
import { InvalidWriteError } from "../invalid-write-error.js";
import { requireArray } from "./require-array.js";

describe("requireArray", () => {
  it("lets an array through", () => {
    expect(() => requireArray([], "upsert")).not.toThrow();
  });

  it.each([
    ["upsert", /^upsert: expected an array of records$/],
    ["deleteDocuments", /^deleteDocuments: expected an array of document ids$/],
  ] as const)("refuses anything else given to %s with an InvalidWriteError, not a TypeError", (operation, message) => {
    let caught: unknown;
    try {
      requireArray("a", operation);
    } catch (error) {
      caught = error;
    }
    expect(InvalidWriteError.isInstance(caught)).toBe(true);
    expect(caught).not.toBeInstanceOf(TypeError);
    expect(caught).toMatchObject({ code: "invalid_argument", operation, message: expect.stringMatching(message) });
  });
});
