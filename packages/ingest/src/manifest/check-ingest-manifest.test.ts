import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { loadedModules } from "@lookup-knowledge/vitest-config/loaded-modules";
import { describe, expect, it } from "vitest";
import { ManifestIssue, checkIngestManifest } from "./check-ingest-manifest.js";

const entry = { id: "a", source: "a.md", title: "A", keywords: ["k"], domain: "d", entities: [] };
const document = { source: "a.md", hash: "h", chunkCount: 2, entry };
const valid = { version: 1, root: "/docs", optionsHash: "o", documents: { a: document }, noContent: { b: { source: "b.md", hash: "h" } } };

function issueOf(value: unknown): { where: string; message: string } {
  try {
    checkIngestManifest(value);
  } catch (error) {
    if (error instanceof ManifestIssue) return { where: error.where.join("."), message: error.message };
    throw error;
  }
  throw new Error("expected the manifest to be refused");
}

describe("checkIngestManifest (issue 36 item 5: no zod on a query's path)", () => {
  it("takes a valid manifest as it was read", () => {
    expect(checkIngestManifest(valid)).toBe(valid);
    const extra = { ...valid, later: true, documents: { a: { ...document, more: 1 } } };
    expect(checkIngestManifest(extra)).toBe(extra);
    const bare = { version: 1, optionsHash: "o", documents: { a: { ...document, entry: { id: "a", source: "a.md" } } } };
    expect(checkIngestManifest(bare)).toEqual(bare);
  });

  it("names the first wrong field by its path, and what it must be", () => {
    expect(issueOf([])).toEqual({ where: "", message: "must be an object, got an array" });
    expect(issueOf({ ...valid, version: 2 })).toEqual({ where: "version", message: "must be 1, got 2" });
    expect(issueOf({ ...valid, optionsHash: 3 })).toEqual({ where: "optionsHash", message: "must be a string, got number" });
    expect(issueOf({ ...valid, root: null })).toEqual({ where: "root", message: "must be a string, got null" });
    expect(issueOf({ ...valid, documents: [] })).toEqual({ where: "documents", message: "must be an object, got an array" });
    expect(issueOf({ ...valid, documents: { a: { source: "a.md" } } })).toEqual({
      where: "documents.a.hash",
      message: "must be a string, got undefined",
    });
    expect(issueOf({ ...valid, documents: { a: { ...document, chunkCount: 1.5 } } })).toEqual({
      where: "documents.a.chunkCount",
      message: "must be a whole number from 0, got 1.5",
    });
    expect(issueOf({ ...valid, documents: { a: { ...document, chunkCount: -1 } } }).where).toBe("documents.a.chunkCount");
    expect(issueOf({ ...valid, documents: { a: { ...document, entry: { ...entry, keywords: ["x", 4] } } } })).toEqual({
      where: "documents.a.entry.keywords.1",
      message: "must be a string, got number",
    });
    expect(issueOf({ ...valid, documents: { a: { ...document, entry: { ...entry, entities: "x" } } } })).toEqual({
      where: "documents.a.entry.entities",
      message: "must be an array of strings, got string",
    });
    expect(issueOf({ ...valid, noContent: { b: { source: "b.md" } } }).where).toBe("noContent.b.hash");
  });

  it("issue 36 item 5: a hostile manifest gets the manifest's error, short, naming the field (not a RangeError, not the value whole)", () => {
    const deep = JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    expect(issueOf({ ...valid, version: deep })).toEqual({ where: "version", message: "must be 1, got an array" });
    expect(issueOf({ ...valid, documents: { a: { ...document, chunkCount: deep } } })).toEqual({
      where: "documents.a.chunkCount",
      message: "must be a whole number from 0, got an array",
    });
    const huge = issueOf({ ...valid, documents: { a: { ...document, chunkCount: "x".repeat(1_000_000) } } });
    expect(huge.message.length).toBeLessThan(100);
    // 1e400 in the file is read as Infinity: shown as that, not as JSON's null.
    expect(issueOf(JSON.parse('{"version":1e400}'))).toEqual({ where: "version", message: "must be 1, got Infinity" });
    expect(issueOf({ ...valid, documents: undefined })).toEqual({ where: "documents", message: "must be an object, got undefined" });
    expect(issueOf({ ...valid, noContent: null })).toEqual({ where: "noContent", message: "must be an object, got null" });
    // A document whose id is a prototype key is checked as any other.
    const proto = JSON.parse('{"version":1,"optionsHash":"o","documents":{"__proto__":{"source":"s"}}}');
    expect(issueOf(proto)).toEqual({ where: "documents.__proto__.hash", message: "must be a string, got undefined" });
  });

  it("reading a manifest loads no zod", () => {
    const manifestEntry = fileURLToPath(new URL("../../dist/manifest.js", import.meta.url));
    const run = loadedModules(["--input-type=module", "-e", `await import(${JSON.stringify(manifestEntry)});`]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.urls.some((url) => url.endsWith("/ingest/dist/manifest/read-ingest-manifest.js"))).toBe(true);
    expect(run.urls.filter((url) => /\/zod@[^/]+\/node_modules\/zod\//.test(url))).toEqual([]);
    // The check sees zod where it is loaded. (The package's root entry loaded it to check ingest
    // options until issue 36 item 6; now only options its plain checks do not read build the schema.)
    const root = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
    const rootRun = loadedModules(["--input-type=module", "-e", `await import(${JSON.stringify(root)});`]);
    expect(rootRun.urls.filter((url) => /\/zod@[^/]+\/node_modules\/zod\//.test(url))).toEqual([]);
    const zod = createRequire(import.meta.url).resolve("zod");
    const withZod = loadedModules([
      "--input-type=module",
      "-e",
      `await import(${JSON.stringify(root)}); await import(${JSON.stringify(zod)});`,
    ]);
    expect(withZod.urls.some((url) => /\/zod@[^/]+\/node_modules\/zod\//.test(url))).toBe(true);
  });
});
