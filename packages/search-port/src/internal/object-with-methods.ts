import type { z as Zod } from "zod";

/**
 * An option that takes an object with these methods (a client, a store, embeddings); anything
 * else is refused with `error`. Built with the `z` of the schema it goes into (the ES build,
 * or the CommonJS one `loadZod` gives a schema built on demand).
 */
export function objectWithMethods<T>(z: typeof Zod, methods: readonly string[], error: string) {
  return z.custom<T>(
    (value) =>
      value !== null &&
      typeof value === "object" &&
      methods.every((name) => typeof (value as Record<string, unknown>)[name] === "function"),
    { error },
  );
}
