import { z } from "zod";

/** An option that takes an object with these methods (a client, a store, embeddings); anything else is refused with `error`. */
export function objectWithMethods<T>(methods: readonly string[], error: string) {
  return z.custom<T>(
    (value) =>
      value !== null &&
      typeof value === "object" &&
      methods.every((name) => typeof (value as Record<string, unknown>)[name] === "function"),
    { error },
  );
}
