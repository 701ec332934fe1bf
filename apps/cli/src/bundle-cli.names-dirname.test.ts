import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { namesDirname } from "../scripts/names-dirname.mjs";

const requireFromCli = createRequire(new URL("../package.json", import.meta.url));

describe("the bundle step's __dirname check (scripts/bundle-cli.mjs)", () => {
  it("issue 36 item 5 review: still refuses a module that uses __dirname or __filename in its code, and lets one through that names them only in comments", () => {
    const uses = [
      'const data = require("path").join(__dirname, "data.bin");',
      "module.exports = function where() { return __filename; };",
      '/** Reads the file beside this one (uses __dirname). */\nexport const here = [__dirname, "x"].join("/");',
      'const marker = "__dirname";',
      "const path: string = __dirname; // a TypeScript module",
    ];
    for (const [index, source] of uses.entries()) expect(namesDirname(source, index === 4 ? "x.ts" : "x.js"), source).toBe(true);
    const commentsOnly = [
      "// Set the directory with program.executableDir(__dirname).\nconst a = 1;",
      "/* __filename */ export const b = 2;",
      "/**\n * @example\n * program.executableDir(__dirname);\n */\nexport function c() {}",
    ];
    for (const source of commentsOnly) expect(namesDirname(source, "x.js"), source).toBe(false);
    // The packages it was written for: commander (comments only), esbuild's API (code).
    const commander = join(dirname(requireFromCli.resolve("commander")), "lib/command.js");
    expect(readFileSync(commander, "utf8")).toContain("__dirname");
    expect(namesDirname(readFileSync(commander, "utf8"), commander)).toBe(false);
    const esbuild = requireFromCli.resolve("esbuild");
    expect(namesDirname(readFileSync(esbuild, "utf8"), esbuild)).toBe(true);
  });
});
