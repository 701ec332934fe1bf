import { ConfigurationError } from "@lookup-knowledge/core";

/** `value` when it is a positive integer; else throws `ConfigurationError` naming `key`. */
export function positiveIntegerOption(key: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new ConfigurationError({ key, value, reason: "must be a positive integer" });
  }
  return value;
}
