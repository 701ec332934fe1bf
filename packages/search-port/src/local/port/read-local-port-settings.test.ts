import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultAnswerabilityModel } from "../answerability/default-answerability-model.js";
import { defaultCjkDenseWeight, defaultDenseFloor, defaultDenseWeight, defaultMinScore } from "./local-search-port-options.js";
import type { LocalSearchPortOptions } from "./local-search-port-options.js";
import { readLocalPortSettings } from "./read-local-port-settings.js";

const identity = { id: "test/hash", version: "1", dimension: 4 };
const embeddings = { identity, embedQuery: async () => [1, 0, 0, 0], embedDocuments: async () => [[1, 0, 0, 0]] };

describe("readLocalPortSettings", () => {
  it("resolves the folder and fills in the defaults of a reader", () => {
    const settings = readLocalPortSettings({ directory: "index" });
    expect(settings).toMatchObject({
      directory: resolve("index"),
      mode: "read",
      embedder: null,
      denseWeight: defaultDenseWeight,
      cjkDenseWeight: defaultCjkDenseWeight,
      denseFloor: defaultDenseFloor,
      minScore: defaultMinScore,
      answerability: defaultAnswerabilityModel,
    });
    expect(typeof settings.onRefreshError).toBe("function");
    expect(readLocalPortSettings({ directory: "index", answerability: false }).answerability).toBeUndefined();
  });

  it("gives CJK queries the denseWeight the caller set unless cjkDenseWeight is set too", () => {
    expect(readLocalPortSettings({ directory: "index", denseWeight: 0 })).toMatchObject({ denseWeight: 0, cjkDenseWeight: 0 });
    expect(readLocalPortSettings({ directory: "index", denseWeight: 1 })).toMatchObject({ denseWeight: 1, cjkDenseWeight: 1 });
    expect(readLocalPortSettings({ directory: "index", cjkDenseWeight: 0.4 })).toMatchObject({
      denseWeight: defaultDenseWeight,
      cjkDenseWeight: 0.4,
    });
    expect(readLocalPortSettings({ directory: "index", denseWeight: 0.5, cjkDenseWeight: 0 })).toMatchObject({
      denseWeight: 0.5,
      cjkDenseWeight: 0,
    });
  });

  it("takes the embedder identity from the embeddings, as a copy", () => {
    const settings = readLocalPortSettings({ directory: "index", mode: "write", embeddings: embeddings as never });
    expect(settings.embedder).toEqual(identity);
    expect(settings.embedder).not.toBe(identity);
  });

  it.each([
    [{ directory: " " }, "directory", /path of the index folder/],
    [{ mode: "append" }, "mode", /"read" or "write"/],
    [{ denseWeight: 2 }, "denseWeight", /from 0 to 1/],
    [{ cjkDenseWeight: -0.1 }, "cjkDenseWeight", /from 0 to 1/],
    [{ minScore: Number.NaN }, "minScore", /from 0 to 1/],
    [{ denseFloor: 1 }, "denseFloor", /from 0 to below 1/],
    [{ embeddings: { embedQuery: () => [] } }, "embeddings", /LangChain Embeddings/],
    [{ embedder: { id: "", version: "1", dimension: 4 } }, "embedder", /non-empty string/],
    [{ embeddings: { embedQuery: () => [], embedDocuments: () => [] } }, "embedder", /no identity/],
    [{ mode: "write", embedder: identity }, "embeddings", /needs the embeddings too/],
    [{ refreshIntervalMs: -1 }, "refreshIntervalMs", /0 or more/],
    [{ onRefreshError: "warn" }, "onRefreshError", /a function/],
    [{ answerability: { kind: "linear" } }, "answerability.kind", /./],
  ])("a bad option %j names its key %s and the reason", (options, key, reason) => {
    expect(() => readLocalPortSettings({ directory: "index", ...options } as LocalSearchPortOptions)).toThrow(
      expect.objectContaining({ name: "ConfigurationError", key, message: expect.stringMatching(reason) }),
    );
  });

  it("reads an option given as null as not given, and names the bad option beside it", () => {
    const nulls = { directory: "index", answerability: null, approximateDense: null, denseWeight: null };
    expect(readLocalPortSettings(nulls as never)).toMatchObject({
      answerability: defaultAnswerabilityModel,
      approximateCandidates: undefined,
      denseWeight: defaultDenseWeight,
    });
    expect(() => readLocalPortSettings({ ...nulls, embedder: { ...identity, id: "" } } as never)).toThrow(
      expect.objectContaining({ name: "ConfigurationError", key: "embedder" }),
    );
  });

  it("refuses options that are not an object", () => {
    expect(() => readLocalPortSettings(undefined as never)).toThrow(/\(options\)=undefined: expected an object with a directory/);
  });
});
