import { z } from "zod";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "./errors.js";
import { parseOptions } from "./parse-options.js";

const schema = z.strictObject({
  limit: z.number().int().positive().optional(),
  weights: z.strictObject({ latin: z.number().min(0).max(1) }).optional(),
});

function refusal(input: unknown): ConfigurationError {
  try {
    parseOptions(schema, input, "openThing");
  } catch (error) {
    if (ConfigurationError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the options to be refused");
}

describe("parseOptions", () => {
  it("returns the parsed options when they are valid", () => {
    expect(parseOptions(schema, { limit: 3 }, "openThing")).toEqual({ limit: 3 });
    expect(parseOptions(schema, {}, "openThing")).toEqual({});
  });

  it("names the key, the refused value and the reason of the first issue", () => {
    const error = refusal({ limit: -2 });
    expect(error.code).toBe("invalid_configuration");
    expect(error.key).toBe("openThing.limit");
    expect(error.value).toBe(-2);
    expect(error.message).toMatch(/^Invalid configuration openThing\.limit=-2: /);
  });

  it("follows nested paths to the refused value", () => {
    const error = refusal({ weights: { latin: 7 } });
    expect(error.key).toBe("openThing.weights.latin");
    expect(error.value).toBe(7);
  });

  it("names an unknown key and a value that is not an object", () => {
    expect(refusal({ limt: 3 }).message).toMatch(/openThing/);
    const notObject = refusal("nope");
    expect(notObject.key).toBe("openThing");
    expect(notObject.value).toBe("nope");
  });

  it("gives the bare path as the key when the options have no name", () => {
    try {
      parseOptions(schema, { limit: 0 }, "");
      throw new Error("expected a refusal");
    } catch (error) {
      expect(ConfigurationError.isInstance(error) && error.key).toBe("limit");
    }
    try {
      parseOptions(schema, 5, "");
      throw new Error("expected a refusal");
    } catch (error) {
      expect(ConfigurationError.isInstance(error) && error.key).toBe("(options)");
    }
  });

  it("reads a top-level null as an option not given, unless the schema accepts null there", () => {
    expect(parseOptions(schema, { limit: null, weights: { latin: 0.5 } }, "openThing")).toEqual({ weights: { latin: 0.5 } });
    const nullable = z.strictObject({ limit: z.number().nullable().optional() });
    expect(parseOptions(nullable, { limit: null }, "openThing")).toEqual({ limit: null });
    // An option refused beside a null one is the one named; a null where a value is needed is named.
    expect(refusal({ limit: null, weights: { latin: 7 } }).key).toBe("openThing.weights.latin");
    const required = z.strictObject({ name: z.string(), limit: z.number().optional() });
    expect(() => parseOptions(required, { name: null, limit: null }, "openThing")).toThrow(/openThing\.name=null: /);
    // Deeper down, null is still a value to check.
    expect(refusal({ weights: { latin: null } }).key).toBe("openThing.weights.latin");
  });
});
