import { ConfigurationError } from "@lookup-knowledge/core";
import type { ConformanceTestApi } from "../port-conformance-subject.js";

/** The test functions given, or the globals `describe`, `it`, `beforeAll` and `afterAll`; without either, a `ConfigurationError` naming `test`. */
export function resolveTestApi(given: ConformanceTestApi | undefined): ConformanceTestApi {
  if (given !== undefined) return given;
  const scope = globalThis as Record<string, unknown>;
  if (
    typeof scope["describe"] === "function" &&
    typeof scope["it"] === "function" &&
    typeof scope["beforeAll"] === "function" &&
    typeof scope["afterAll"] === "function"
  ) {
    return scope as unknown as ConformanceTestApi;
  }
  throw new ConfigurationError({
    key: "test",
    value: undefined,
    reason: "no global describe/it/beforeAll/afterAll; pass { test: { describe, it, beforeAll, afterAll } } from your test framework",
  });
}
