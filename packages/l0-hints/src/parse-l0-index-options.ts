import { ConfigurationError, type MetadataFilter, parseOptions } from "@lookup-knowledge/core";
import { z } from "zod";
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

const positiveWholeNumber = z
  .number({ error: "must be a number" })
  .int({ error: "must be a whole number" })
  .min(1, { error: "must be at least 1" });

const settings = {
  minTermLength: positiveWholeNumber.max(1000, { error: "must be at most 1000" }),
  maxEntries: positiveWholeNumber,
  maxTermShare: z.number({ error: "must be a number" }).min(0, { error: "must be at least 0" }).max(1, { error: "must be at most 1" }),
  isCommonTerm: z.custom<(term: string) => boolean>((value) => typeof value === "function", { error: "must be a function" }),
  isCommonTermIn: z.custom<(scope: MetadataFilter) => (term: string) => boolean>((value) => typeof value === "function", {
    error: "must be a function",
  }),
} as const;

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
    resolved[name] = parseOptions(settings[name], value, name);
  }
  if (options.isCommonTerm !== undefined) resolved.isCommonTerm = parseOptions(settings.isCommonTerm, options.isCommonTerm, "isCommonTerm");
  if (options.isCommonTermIn !== undefined) {
    resolved.isCommonTermIn = parseOptions(settings.isCommonTermIn, options.isCommonTermIn, "isCommonTermIn");
  }
  return resolved;
}
