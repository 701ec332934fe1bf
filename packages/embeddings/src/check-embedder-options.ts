import { ConfigurationError } from "@lookup-knowledge/core";

export const defaultHashDimension = 256;
export const defaultLexicalWeight = 0.5;

/** `hashDimension`: an integer from 16 to 65536, default 256. */
export function checkHashDimension(value: number | undefined): number {
  if (value === undefined) return defaultHashDimension;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 16 || value > 65_536) {
    throw new ConfigurationError({ key: "hashDimension", value, reason: "must be an integer from 16 to 65536" });
  }
  return value;
}

/** `chineseGlosses`: true or false, default true. */
export function checkChineseGlosses(value: boolean | undefined): boolean {
  if (value === undefined) return true;
  if (typeof value !== "boolean") throw new ConfigurationError({ key: "chineseGlosses", value, reason: "must be true or false" });
  return value;
}

/** `lexicalWeight`: a number from 0 to 1, default 0.5. */
export function checkLexicalWeight(value: number | undefined): number {
  if (value === undefined) return defaultLexicalWeight;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new ConfigurationError({ key: "lexicalWeight", value, reason: "must be a number from 0 to 1" });
  }
  return value;
}
