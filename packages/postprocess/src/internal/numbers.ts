import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { PostprocessErrorCode } from "../postprocess-error-code.js";

/** Rounds to `decimals` places, so sums of boosts compare equal whatever their order. */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Refuses an argument that is not a whole number of at least `min`, naming it. */
export function requireWholeNumber(name: string, value: unknown, min: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new LookupKnowledgeError<PostprocessErrorCode>({
      code: "invalid_argument",
      message: `${name} must be a whole number of at least ${min}, got ${String(value)}`,
    });
  }
  return value;
}
