import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { normalizePineconeScore } from "./normalize-pinecone-score.js";
import { pineconeConnectionOptionsSchema } from "./pinecone-connection-options.js";
import type { PineconeConnectionOptions } from "./pinecone-connection-options.js";
import { idleIndex, oneNumberEmbeddings } from "./pinecone-port-test-fixtures.js";
import { pineconeSearchPortOptionsSchema } from "./pinecone-search-port-options.js";
import type { PineconeSearchPortOptions } from "./pinecone-search-port-options.js";

const index = idleIndex;
const embeddings = oneNumberEmbeddings;

describe("pineconeSearchPortOptionsSchema", () => {
  it("takes exactly the documented options: its input type is PineconeSearchPortOptions, property by property (a new, dropped or retyped option fails the type check)", () => {
    expectTypeOf<PineconeSearchPortOptions>().toEqualTypeOf<z.input<typeof pineconeSearchPortOptionsSchema>>();
    expectTypeOf<PineconeConnectionOptions>().toEqualTypeOf<z.input<typeof pineconeConnectionOptionsSchema>>();
  });

  it("fills in the defaults that depend on no other option", () => {
    const parsed = pineconeSearchPortOptionsSchema.parse({ index, embeddings, hybrid: {} });
    expect(parsed).toMatchObject({
      concurrency: 4,
      maxRetries: 3,
      timeoutMs: 20_000,
      retryBaseDelayMs: 250,
      retryMaxDelayMs: 8_000,
      hybrid: { lexicalWeight: 0.3 },
    });
    expect(parsed.normalizeScore).toBe(normalizePineconeScore);
    expect(parsed.batchSize).toBeUndefined();
    expect(pineconeConnectionOptionsSchema.parse({ apiKey: "key", embeddings })).toMatchObject({ maxRetries: 3, timeoutMs: 20_000 });
  });
});
