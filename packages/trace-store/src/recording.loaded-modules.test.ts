import { fileURLToPath } from "node:url";
import { loadedModules } from "@lookup-knowledge/vitest-config/loaded-modules";
import { describe, expect, it } from "vitest";

// The built entry, in a process of its own that records the ES modules it loads and prints
// how many of zod's CommonJS modules it required (what `schemaOnDemand` loads).
const entry = fileURLToPath(new URL("../dist/recording.js", import.meta.url));
const zodModule = /\/zod@[^/]+\/node_modules\/zod\//;

function run(options: string) {
  const child = loadedModules([
    "--input-type=module",
    "-e",
    `const { mkdtempSync, rmSync } = await import("node:fs");
     const { tmpdir } = await import("node:os");
     const { join } = await import("node:path");
     const { createRequire } = await import("node:module");
     const recording = await import(${JSON.stringify(entry)});
     const directory = mkdtempSync(join(tmpdir(), "recording-loads-"));
     let refused = "";
     try {
       const spool = recording.createTraceSpool({ directory, ...${options} });
       recording.createTraceRecorder(spool, ${options});
       recording.resolveQueryStorage(${options}.queryStorage);
       await spool.close();
     } catch (error) { refused = error.message; }
     rmSync(directory, { recursive: true, force: true });
     const required = Object.keys(createRequire(import.meta.url).cache).filter((path) => /[\\\\/]zod[\\\\/]/.test(path)).length;
     console.log(JSON.stringify({ refused, required }));`,
  ]);
  expect(child.status, child.stderr).toBe(0);
  return { ...JSON.parse(child.stdout), esm: child.urls.filter((url) => zodModule.test(url)).length };
}

describe("what a lookup's trace recording loads", () => {
  it("issue 36 item 5: a spool and a recorder of good options load no zod; a bad option loads it to refuse it as before", () => {
    expect(run(`{ fsync: "on-flush", maxSegmentBytes: 4096, maxPending: 10, queryStorage: "hash" }`)).toEqual({
      refused: "",
      required: 0,
      esm: 0,
    });
    const bad = run(`{ maxSegmentBytes: 0.5 }`);
    expect(bad.refused).toBe("Invalid configuration createTraceSpool.maxSegmentBytes=0.5: must be a whole number, 1 or more");
    expect(bad.required).toBeGreaterThan(0);
  });
});
