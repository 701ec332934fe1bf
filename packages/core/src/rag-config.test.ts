import { describe, expect, it } from "vitest";
import { ConfigurationError } from "./errors.js";
import { defaultRagConfig, resolveRagConfig } from "./rag-config.js";

function refusal(input: Parameters<typeof resolveRagConfig>[0]): ConfigurationError {
  try {
    resolveRagConfig(input);
  } catch (error) {
    if (ConfigurationError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the configuration to be refused");
}

describe("resolveRagConfig", () => {
  it("fills every setting with its default, max-chunks-per-document being 2 (R16)", () => {
    expect(resolveRagConfig()).toEqual(defaultRagConfig);
    expect(resolveRagConfig().maxChunksPerDocument).toBe(2);
  });

  it("R17: accepts flat rag.* keys, with string values as a config file gives them", () => {
    const config = resolveRagConfig({
      "rag.retrieve-k": "20",
      "rag.return-n": 5,
      "rag.max-chunks-per-document": "3",
      "rag.reference-threshold": "0.4",
      "rag.context-budget": 2000,
      "rag.l1-enabled": "false",
      "rag.l1-timeout-ms": "250",
    });
    expect(config).toMatchObject({
      retrieveK: 20,
      returnN: 5,
      maxChunksPerDocument: 3,
      referenceThreshold: 0.4,
      contextBudget: 2000,
      l1Enabled: false,
      l1TimeoutMs: 250,
    });
  });

  it("accepts the typed object, and a mix of typed and flat keys", () => {
    expect(resolveRagConfig({ retrieveK: 30, returnN: 4 })).toMatchObject({ retrieveK: 30, returnN: 4 });
    expect(resolveRagConfig({ retrieveK: 30, "rag.return-n": "4" })).toMatchObject({ retrieveK: 30, returnN: 4 });
  });

  it("R17: legacy rag.top-k fills retrieve-k and return-n only where they are absent", () => {
    expect(resolveRagConfig({ "rag.top-k": 8 })).toMatchObject({ retrieveK: 8, returnN: 8 });
    expect(resolveRagConfig({ "rag.top-k": 8, "rag.retrieve-k": 40 })).toMatchObject({ retrieveK: 40, returnN: 8 });
    expect(resolveRagConfig({ topK: 8, returnN: 3 })).toMatchObject({ retrieveK: 8, returnN: 3 });
  });

  it("keeps the default return-n within a small retrieve-k", () => {
    expect(resolveRagConfig({ retrieveK: 3 })).toMatchObject({ retrieveK: 3, returnN: 3 });
  });

  it.each([
    [{ "rag.return-n": "five" }, "rag.return-n"],
    [{ "rag.retrieve-k": 0 }, "rag.retrieve-k"],
    [{ retrieveK: 2.5 }, "rag.retrieve-k"],
    [{ "rag.reference-threshold": 1.5 }, "rag.reference-threshold"],
    [{ "rag.max-chunks-per-document": -1 }, "rag.max-chunks-per-document"],
    [{ "rag.l1-enabled": "yes" }, "rag.l1-enabled"],
    [{ "rag.context-budget": "" }, "rag.context-budget"],
    [{ "rag.reference-threshold": false }, "rag.reference-threshold"],
    [{ "rag.retrieve-k": true }, "rag.retrieve-k"],
    [{ "rag.retrieve-k": "0x10" }, "rag.retrieve-k"],
    [{ "rag.retrieve-k": "1e2" }, "rag.retrieve-k"],
    [{ "rag.retrieve-k": Number.NaN }, "rag.retrieve-k"],
    [{ "rag.retreive-k": 20 }, "rag.retreive-k"],
    [{ "rag.retrieve-k": 10, "rag.return-n": 11 }, "rag.return-n"],
    [{ retrieveK: 10, "rag.retrieve-k": 12 }, "rag.retrieve-k"],
  ])("refuses %j with an error naming %s", (input, key) => {
    const error = refusal(input as Record<string, string | number | boolean>);
    expect(error.key).toBe(key);
    expect(error.code).toBe("invalid_configuration");
    expect(error.message).toContain(key);
    expect(error.message).not.toMatch(/Invalid input/);
  });

  it("refuses a configuration that is not an object", () => {
    expect(refusal("rag.retrieve-k=3" as never).message).toMatch(/must be an object/);
  });
});
