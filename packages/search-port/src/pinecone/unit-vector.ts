import { ConfigurationError } from "@lookup-knowledge/core";

/** Throws a `ConfigurationError` (key `embeddings`) unless the embedder returned a non-empty array of finite numbers. */
export function checkVector(vector: unknown, source: string): asserts vector is number[] {
  if (!Array.isArray(vector) || vector.length === 0 || !vector.every((value) => typeof value === "number" && Number.isFinite(value))) {
    throw new ConfigurationError({ key: "embeddings", value: vector, reason: `${source} must return a non-empty array of finite numbers` });
  }
}

/** The vector scaled to unit length, or undefined for a zero vector. */
export function unitVector(vector: number[]): number[] | undefined {
  let sum = 0;
  for (const value of vector) sum += value * value;
  if (sum === 0) return undefined;
  const length = Math.sqrt(sum);
  return vector.map((value) => value / length);
}
