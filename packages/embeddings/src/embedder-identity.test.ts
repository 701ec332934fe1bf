import { describe, expect, it } from "vitest";
import { describeEmbedder } from "./embedder-identity.js";

describe("describeEmbedder", () => {
  it("returns a well-formed identity", () => {
    const embeddings = { identity: { id: "acme/embedder", version: "2", dimension: 384 } };
    expect(describeEmbedder(embeddings)).toEqual({ id: "acme/embedder", version: "2", dimension: 384 });
  });

  it("returns a copy, not the object itself", () => {
    const identity = { id: "acme/embedder", version: "2", dimension: 384 };
    expect(describeEmbedder({ identity })).not.toBe(identity);
  });

  it("returns undefined for embeddings that declare no identity", () => {
    expect(describeEmbedder({})).toBeUndefined();
    expect(describeEmbedder({ identity: null })).toBeUndefined();
    expect(describeEmbedder({ identity: "acme" })).toBeUndefined();
  });

  it("returns undefined for a malformed identity", () => {
    const good = { id: "acme/embedder", version: "2", dimension: 384 };
    for (const identity of [
      { ...good, id: "" },
      { ...good, id: 7 },
      { ...good, version: " " },
      { ...good, version: 2 },
      { ...good, dimension: 0 },
      { ...good, dimension: 1.5 },
      { ...good, dimension: "384" },
      { id: "acme/embedder", version: "2" },
    ]) {
      expect(describeEmbedder({ identity })).toBeUndefined();
    }
  });
});
