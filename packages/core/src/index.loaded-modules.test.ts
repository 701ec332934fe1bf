import { fileURLToPath } from "node:url";
import { loadedModules } from "@lookup-knowledge/vitest-config/loaded-modules";
import { describe, expect, it } from "vitest";

// The built package, in a process of its own that records every module it loads.
const entry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const zodModule = /\/zod@[^/]+\/node_modules\/zod\//;

function run(code: string) {
  const child = loadedModules(["--input-type=module", "-e", code]);
  expect(child.status, child.stderr).toBe(0);
  return child;
}

describe("what @lookup-knowledge/core loads", () => {
  it("issue 36 item 5: importing it and reading rag.* settings, good and bad, loads no zod", () => {
    const child = run(`
      const core = await import(${JSON.stringify(entry)});
      const config = core.resolveRagConfig({ "rag.return-n": "3", "rag.l1-enabled": "true", referenceThreshold: 0.4 });
      let refused = "";
      try { core.resolveRagConfig({ "rag.retrieve-k": "1.5" }); } catch (error) { refused = error.code + " " + error.message; }
      console.log(JSON.stringify({ returnN: config.returnN, refused }));
    `);
    expect(child.urls.some((url) => url.endsWith("/core/dist/rag-config.js"))).toBe(true);
    expect(child.urls.filter((url) => zodModule.test(url))).toEqual([]);
    expect(JSON.parse(child.stdout)).toEqual({
      returnN: 3,
      refused: 'invalid_configuration Invalid configuration rag.retrieve-k="1.5": must be a whole number',
    });
  });

  it("issue 36 item 5: the check sees zod when it is loaded", () => {
    const child = run(`await import("zod"); await import(${JSON.stringify(entry)});`);
    expect(child.urls.some((url) => zodModule.test(url))).toBe(true);
  });
});
