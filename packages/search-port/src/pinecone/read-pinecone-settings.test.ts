import { describe, expect, it } from "vitest";
import { idleIndex, oneNumberEmbeddings } from "./pinecone-port-test-fixtures.js";
import type { PineconeSearchPortOptions } from "./pinecone-search-port-options.js";
import { readPineconeSettings } from "./read-pinecone-settings.js";

const index = idleIndex;
const embeddings = oneNumberEmbeddings;

describe("readPineconeSettings", () => {
  it("fills in the defaults of a dense port", () => {
    const settings = readPineconeSettings({ index, embeddings, metric: "cosine" });
    expect(settings).toMatchObject({
      mode: "dense",
      metric: "cosine",
      textField: "text",
      batchSize: 100,
      concurrency: 4,
      policy: { maxRetries: 3, timeoutMs: 20_000, retryBaseDelayMs: 250, retryMaxDelayMs: 8_000 },
    });
  });

  it("reads hybrid's lexical weight and the integrated text field", () => {
    expect(readPineconeSettings({ index, embeddings, metric: "dotproduct", hybrid: { lexicalWeight: 0.5 } })).toMatchObject({
      mode: "hybrid",
      lexicalWeight: 0.5,
    });
    expect(readPineconeSettings({ index, metric: "cosine", integrated: { textField: "chunk" } })).toMatchObject({
      mode: "integrated",
      textField: "chunk",
      batchSize: 96,
    });
  });

  it.each([
    [{ batchSize: 1.5 }, "batchSize", /expected an integer from 1 to 1000/],
    [{ concurrency: "4" }, "concurrency", /expected an integer from 1 to 64/],
    [{ namespace: 3 }, "namespace", /expected a string/],
    [{ textKey: "$text" }, "textKey", /metadata key/],
    [{ normalizeScore: "linear" }, "normalizeScore", /expected a function/],
    [{ embeddings: { embedQuery: 1 } }, "embeddings", /LangChain Embeddings/],
    [{ metric: "dotproduct", hybrid: "yes" }, "hybrid", /true, false or \{ lexicalWeight \}/],
    [{ metric: "dotproduct", hybrid: { lexicalWeight: -0.1 } }, "hybrid.lexicalWeight", /from 0 up to, not including, 1/],
    [{ embeddings: undefined, integrated: { textField: "t" }, batchSize: 97 }, "batchSize", /from 1 to 96/],
  ])("a bad option %j names its key %s and the reason", (options, key, reason) => {
    expect(() => readPineconeSettings({ index, embeddings, metric: "cosine", ...options } as PineconeSearchPortOptions)).toThrow(
      expect.objectContaining({ name: "ConfigurationError", key, message: expect.stringMatching(reason) }),
    );
  });
});
