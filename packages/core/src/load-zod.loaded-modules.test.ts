import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";

const entry = fileURLToPath(new URL("../dist/load-zod.js", import.meta.url));

/** Runs `code` as an ES module and answers how many of zod's CommonJS modules it required. */
function requiredZodModules(code: string): number {
  const child = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `${code}\nconst { createRequire } = await import("node:module");\nconsole.log(Object.keys(createRequire(import.meta.url).cache).filter((path) => /[\\\\/]zod[\\\\/]/.test(path)).length);`,
    ],
    { encoding: "utf8" },
  );
  expect(child.status, child.stderr).toBe(0);
  return Number(child.stdout.trim());
}

describe("what @lookup-knowledge/core/load-zod loads", () => {
  it("issue 36 item 5: importing it and making a schema on demand loads no zod; building the schema does", () => {
    const make = `const { schemaOnDemand } = await import(${JSON.stringify(entry)}); const schema = schemaOnDemand((z) => z.string());`;
    expect(requiredZodModules(make)).toBe(0);
    expect(requiredZodModules(`${make} schema().parse("x");`)).toBeGreaterThan(0);
  });
});
