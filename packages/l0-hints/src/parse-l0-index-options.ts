import { ConfigurationError, type MetadataFilter } from "@lookup-knowledge/core";
import type { L0IndexOptions } from "./l0-index-options.js";

/** `L0IndexOptions` with every value filled in. */
export interface ResolvedL0IndexOptions {
  minTermLength: number;
  maxEntries: number;
  maxTermShare: number;
  isCommonTerm?: ((term: string) => boolean) | undefined;
  isCommonTermIn?: ((scope: MetadataFilter) => (term: string) => boolean) | undefined;
}

export const defaultL0IndexOptions: Readonly<ResolvedL0IndexOptions> = Object.freeze({
  minTermLength: 2,
  maxEntries: 20,
  maxTermShare: 0.02,
});

// Checked by hand, not by zod schemas: every open of a knowledge base builds an L0 index
// (issue 36 item 5: zod's ~95 modules were loaded for these five checks). The reasons are the
// ones the schemas gave.
const limits = {
  minTermLength: { whole: true, min: 1, max: 1000 },
  maxEntries: { whole: true, min: 1, max: undefined },
  maxTermShare: { whole: false, min: 0, max: 1 },
} as const;

function checkNumber(name: keyof typeof limits, value: unknown): number {
  const { whole, min, max } = limits[name];
  const refuse = (reason: string): never => {
    throw new ConfigurationError({ key: name, value, reason });
  };
  if (typeof value !== "number" || !Number.isFinite(value)) return refuse("must be a number");
  if (whole && !Number.isSafeInteger(value)) return refuse("must be a whole number");
  if (value < min) return refuse(`must be at least ${min}`);
  if (max !== undefined && value > max) return refuse(`must be at most ${max}`);
  return value;
}

function checkFunction<Checked>(name: string, value: unknown): Checked {
  if (typeof value !== "function") throw new ConfigurationError({ key: name, value, reason: "must be a function" });
  return value as Checked;
}

/** Checks the options of `createL0Index`; a bad value throws a `ConfigurationError` naming it. */
export function parseL0IndexOptions(options: L0IndexOptions | undefined): ResolvedL0IndexOptions {
  if (options === undefined) return { ...defaultL0IndexOptions };
  if (options === null || typeof options !== "object") {
    throw new ConfigurationError({ key: "options", value: options, reason: "must be an object" });
  }
  const resolved: ResolvedL0IndexOptions = { ...defaultL0IndexOptions };
  for (const name of ["minTermLength", "maxEntries", "maxTermShare"] as const) {
    const value: unknown = options[name];
    if (value === undefined) continue;
    resolved[name] = checkNumber(name, value);
  }
  if (options.isCommonTerm !== undefined) resolved.isCommonTerm = checkFunction("isCommonTerm", options.isCommonTerm);
  if (options.isCommonTermIn !== undefined) resolved.isCommonTermIn = checkFunction("isCommonTermIn", options.isCommonTermIn);
  return resolved;
}
