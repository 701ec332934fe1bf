import { fileURLToPath } from "node:url";
import { loadedModules } from "@lookup-knowledge/vitest-config/loaded-modules";
import { describe, expect, it } from "vitest";

const built = (entry: string): string => fileURLToPath(new URL(`../dist/${entry}`, import.meta.url));
const parserModules = /\/(@lezer\+[^/]*|micromark[^/]*|mdast-util-[^/]*|yaml|smol-toml|picomatch)@/;

describe("./manifest", () => {
  it("loads the manifest reader and writer without the Markdown parser; the package root loads it (the built package)", () => {
    const manifest = loadedModules([built("manifest.js")]);
    expect(manifest.status, manifest.stderr).toBe(0);
    expect(manifest.urls.some((url) => url.endsWith("/read-ingest-manifest.js"))).toBe(true);
    expect(manifest.urls.filter((url) => parserModules.test(url) || url.endsWith("/parse-markdown-blocks.js"))).toEqual([]);

    // The check sees a parser when one is loaded.
    const root = loadedModules([built("index.js")]);
    expect(root.urls.some((url) => parserModules.test(url))).toBe(true);
  });

  it("exports what a reader of a data folder needs", async () => {
    const manifest = await import("./manifest.js");
    expect(Object.keys(manifest).sort()).toEqual([
      "IngestError",
      "ingestManifestFileName",
      "readIngestManifest",
      "writeFileAtomically",
      "writeIngestManifest",
    ]);
  });
});
