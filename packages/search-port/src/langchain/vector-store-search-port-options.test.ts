import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { vectorStoreSearchPortOptionsSchema } from "./vector-store-search-port-options.js";
import type { VectorStoreSearchPortOptions } from "./vector-store-search-port-options.js";

describe("vectorStoreSearchPortOptionsSchema", () => {
  it("takes exactly the documented options: its input type is VectorStoreSearchPortOptions, property by property (a new, dropped or retyped option fails the type check)", () => {
    expectTypeOf<VectorStoreSearchPortOptions>().toEqualTypeOf<z.input<typeof vectorStoreSearchPortOptionsSchema>>();
  });

  it("fills in idKey and batchSize", () => {
    const vectorStore = { similaritySearchWithScore: async () => [], addDocuments: async () => [] };
    expect(vectorStoreSearchPortOptionsSchema.parse({ vectorStore })).toEqual({ vectorStore, idKey: "recordId", batchSize: 100 });
  });
});
