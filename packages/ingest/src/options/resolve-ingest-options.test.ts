import { ConfigurationError } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import type { IngestOptions } from "./ingest-options.js";
import { resolveIngestOptions } from "./resolve-ingest-options.js";

describe("resolveIngestOptions", () => {
  it("fills in the documented defaults", () => {
    expect(resolveIngestOptions(undefined)).toEqual({
      include: ["**/*.md", "**/*.mdx"],
      exclude: ["**/node_modules/**", "**/.*/**"],
      categoryField: "category",
      entityFields: ["entities", "aliases", "tags"],
      keywordFields: ["keywords"],
      descriptionFields: ["description", "summary"],
      maxChunkChars: 1500,
      overlapChars: 150,
      followSymlinks: false,
    });
    // A JavaScript caller may pass an option as undefined: it takes its default.
    expect(resolveIngestOptions({ maxChunkChars: 800, overlapChars: undefined } as unknown as IngestOptions)).toMatchObject({
      maxChunkChars: 800,
      overlapChars: 150,
    });
  });

  it("refuses bad values with a ConfigurationError naming the option", () => {
    expect(() => resolveIngestOptions({ maxChunkChars: 10 })).toThrow(ConfigurationError);
    expect(() => resolveIngestOptions({ maxChunkChars: 10 })).toThrow(/maxChunkChars=10/);
    expect(() => resolveIngestOptions({ overlapChars: -1 })).toThrow(/overlapChars/);
    expect(() => resolveIngestOptions({ maxChunkChars: 400, overlapChars: 300 })).toThrow(/at most half of maxChunkChars/);
    expect(() => resolveIngestOptions({ include: [] })).toThrow(/include/);
    expect(() => resolveIngestOptions({ categoryField: " " })).toThrow(/categoryField/);
    expect(() => resolveIngestOptions({ chunkSize: 5 } as never)).toThrow(ConfigurationError);
  });
});
