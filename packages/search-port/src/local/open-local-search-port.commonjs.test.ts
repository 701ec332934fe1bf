import { fileURLToPath } from "node:url";
import { isEsModule } from "@lookup-knowledge/vitest-config/is-es-module";
import { loadedModules } from "@lookup-knowledge/vitest-config/loaded-modules";
import { describe, expect, it } from "vitest";
import { build, directory, useIndexFolder } from "./test/local-port-test-fixtures.js";

useIndexFolder();

// The built package, as a program loads it (turbo builds the package before its tests).
const entry = fileURLToPath(new URL("../../dist/local/index.js", import.meta.url));
// Prints, at exit, the CommonJS modules `require` loaded whose path names xxhash.
const requiredXxhash = `data:text/javascript,import { createRequire } from "node:module"; process.on("exit", () => process.stderr.write("xxhash required: " + Object.keys(createRequire("/").cache).filter((path) => path.includes("/@node-rs/xxhash")).length + "\\n"));`;

describe("issue 36 item 5: a reader's process starts no CommonJS export scanner", () => {
  it("imports every package it loads as an ES module as one, and requires xxhash (the block checks' hash)", async () => {
    await (await build()).close();
    const run = loadedModules([
      "--import",
      requiredXxhash,
      "--input-type=module",
      "-e",
      `const { openLocalSearchPort } = await import(${JSON.stringify(entry)});
       const port = await openLocalSearchPort({ directory: ${JSON.stringify(directory)}, mode: "read" });
       const hits = await port.search({ query: "refund for a cancelled order", topK: 3 });
       await port.close();
       console.log(hits.length);`,
    ]);
    expect(run.status, run.stderr).toBe(0);
    // An ES module importing a CommonJS one makes Node scan its exports (40-60 ms of CPU to start).
    const packages = run.urls.filter((url) => url.includes("/node_modules/"));
    expect(packages.length).toBeGreaterThan(0);
    expect(packages.filter((url) => !isEsModule(url))).toEqual([]);
    expect(Number(/xxhash required: (\d+)/.exec(run.stderr)?.[1])).toBeGreaterThan(0);
    // The check sees a CommonJS package imported as an ES module when there is one.
    const commonJs = loadedModules(["--input-type=module", "-e", `await import("@node-rs/xxhash");`], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
    });
    expect(commonJs.status, commonJs.stderr).toBe(0);
    expect(commonJs.urls.filter((url) => url.includes("/node_modules/") && !isEsModule(url)).length).toBeGreaterThan(0);
  });
});
