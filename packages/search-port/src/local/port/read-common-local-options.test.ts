import { parseOptions } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { embedderIdentitySchema, localSearchPortOptionsSchema } from "./local-search-port-options.js";
import { readCommonEmbedderIdentity, readCommonLocalOptions } from "./read-common-local-options.js";

const embeddings = { embedQuery: async () => [1], embedDocuments: async () => [[1]] };

const common: Array<Record<string, unknown>> = [
  { directory: "/tmp/index" },
  { directory: "idx", mode: "read" },
  { directory: "idx", mode: "write", embeddings },
  { directory: "idx", embeddings, denseWeight: 0, cjkDenseWeight: 1, minScore: 0.5, denseFloor: 0 },
  { directory: "idx", denseWeight: 1, denseFloor: 0.999, refreshIntervalMs: 0, postingsCacheBytes: 0 },
  { directory: " idx ", mode: undefined, minScore: undefined, refreshIntervalMs: 2500.5, postingsCacheBytes: 1 << 20 },
  // Issue 36 item 6: what a CLI ingest gives its writer (a function), and the two fixed choices.
  { directory: "idx", mode: "write", embeddings, onEmbedderChange: () => "start-empty" },
  { directory: "idx", mode: "write", onEmbedderChange: "start-empty" },
  { directory: "idx", onEmbedderChange: "refuse" },
];

const declined: unknown[] = [
  undefined,
  null,
  "idx",
  [],
  {},
  { directory: "" },
  { directory: "   " },
  { directory: 7 },
  { directory: "idx", mode: "append" },
  { directory: "idx", mode: null },
  { directory: "idx", denseWeight: 1.2 },
  { directory: "idx", denseWeight: Number.NaN },
  { directory: "idx", minScore: -0.1 },
  { directory: "idx", denseFloor: 1 },
  { directory: "idx", embeddings: { embedQuery: async () => [1] } },
  { directory: "idx", refreshIntervalMs: -1 },
  { directory: "idx", postingsCacheBytes: 1.5 },
  { directory: "idx", approximateDense: true },
  { directory: "idx", answerability: false },
  { directory: "idx", onEmbedderChange: "start" },
  { directory: "idx", onEmbedderChange: null },
  { directory: "idx", embedder: { id: "e", version: "1", dimension: 3 } },
  { directory: "idx", somethingElse: 1 },
];

describe("the common options of openLocalSearchPort, read without zod (issue 36 item 5)", () => {
  it.each(common)("issue 36 item 5: %o reads to what the schema gives", (input) => {
    expect(readCommonLocalOptions(input)).toEqual(parseOptions(localSearchPortOptionsSchema(), input, ""));
  });

  it("issue 36 item 5: anything else is left to the schema (and a bad option to its message)", () => {
    for (const input of declined) expect([input, readCommonLocalOptions(input)]).toEqual([input, undefined]);
    expect(() => parseOptions(localSearchPortOptionsSchema(), { directory: "idx", denseWeight: 1.2 }, "")).toThrow(
      /denseWeight=1\.2: expected a number from 0 to 1/,
    );
  });

  it("issue 36 item 5: an embedder identity reads to the schema's copy, or is left to it", () => {
    const identity = { id: "lookup-knowledge/offline", version: "2", dimension: 356 };
    const read = readCommonEmbedderIdentity(identity);
    expect(read).toEqual(parseOptions(embedderIdentitySchema(), identity, "embedder"));
    expect(read).not.toBe(identity);
    for (const bad of [
      null,
      [],
      { id: "", version: "1", dimension: 3 },
      { id: "e", version: 1, dimension: 3 },
      { id: "e", version: "1", dimension: 0 },
    ]) {
      expect(readCommonEmbedderIdentity(bad)).toBeUndefined();
    }
    expect(readCommonEmbedderIdentity({ ...identity, extra: true })).toBeUndefined();
    expect(readCommonEmbedderIdentity({ id: "e", version: "1", dimension: 2.5 })).toBeUndefined();
  });
});
