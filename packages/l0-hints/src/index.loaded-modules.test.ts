import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadedModules } from "@lookup-knowledge/vitest-config/loaded-modules";
import { describe, expect, it } from "vitest";

// The built package, in a process of its own that records every module it loads.
const entry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const zodModule = /\/zod@[^/]+\/node_modules\/zod\//;

describe("what @lookup-knowledge/l0-hints loads", () => {
  it("issue 36 item 5: building an index, with options good and bad and a bad entry, loads no zod; the reasons are the schemas'", () => {
    const run = loadedModules([
      "--input-type=module",
      "-e",
      `const { createL0Index } = await import(${JSON.stringify(entry)});
       const index = createL0Index([{ id: "a", source: "a.md", title: "Rate limits", keywords: ["throttle"] }], { maxEntries: 5, isCommonTerm: () => false });
       const refusals = [];
       for (const [entries, options] of [[[], { maxTermShare: 2 }], [[], { minTermLength: null }], [[], { maxEntries: 1.5 }], [[], { isCommonTerm: 1 }], [[{ id: "a", source: " " }], {}]]) {
         try { createL0Index(entries, options); } catch (error) { refusals.push(error.message); }
       }
       console.log(JSON.stringify({ hints: index.match("how do I throttle requests").entries.length, refusals }));`,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.urls.some((url) => url.endsWith("/l0-hints/dist/parse-knowledge-entries.js"))).toBe(true);
    expect(run.urls.filter((url) => zodModule.test(url))).toEqual([]);
    expect(JSON.parse(run.stdout)).toEqual({
      hints: 1,
      refusals: [
        "Invalid configuration maxTermShare=2: must be at most 1",
        "Invalid configuration minTermLength=null: must be a number",
        "Invalid configuration maxEntries=1.5: must be a whole number",
        "Invalid configuration isCommonTerm=1: must be a function",
        'Invalid knowledge entry at index 0 (id "a"): source must be a non-empty string (got " ")',
      ],
    });
  });
});

describe("what @lookup-knowledge/l0-hints declares", () => {
  it("issue 36 item 5: every dependency it declares is one its sources import (zod went with the checks by hand)", () => {
    const sources = fileURLToPath(new URL(".", import.meta.url));
    const imported = new Set<string>();
    for (const file of readdirSync(sources, { recursive: true }) as string[]) {
      if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
      for (const match of readFileSync(join(sources, file), "utf8").matchAll(/\bfrom\s+["']([^"'./][^"']*)["']/g)) {
        const specifier = match[1] as string;
        imported.add(specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : (specifier.split("/")[0] as string));
      }
    }
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(imported.has("@lookup-knowledge/core")).toBe(true);
    expect(Object.keys(manifest.dependencies).filter((name) => !imported.has(name))).toEqual([]);
  });
});
