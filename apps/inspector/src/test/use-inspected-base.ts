import { afterAll, beforeAll } from "vitest";
import { inspectExampleBase, type InspectedBase } from "./inspected-base.js";

/**
 * The example base ingested and served for the tests of one file (`inspectExampleBase`),
 * opened before them and closed after: call it inside `describe`, read `.current` in a test.
 */
export function useInspectedBase(options: { queryStorage?: "text" | "hash" } = {}): { readonly current: InspectedBase } {
  let base: InspectedBase | undefined;
  beforeAll(async () => {
    base = await inspectExampleBase(options);
  }, 120_000);
  afterAll(async () => {
    await base?.close();
  });
  return {
    get current(): InspectedBase {
      if (!base) throw new Error("the inspected base is opened in beforeAll: read it inside a test");
      return base;
    },
  };
}
