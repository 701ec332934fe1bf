import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The benches (`pnpm bench`, bench/ and packages/*/bench) load built files by path, which no
// type check follows: a file moved inside a package (issue 34's rooms) broke them silently.
// Every built file a bench names must exist once the workspace is built (turbo builds before tests).

const root = fileURLToPath(new URL("../../../", import.meta.url));
const benchFiles = execFileSync("git", ["ls-files", "bench", "packages/*/bench", "apps/*/bench"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter((file) => /\.(?:mjs|js|ts)$/.test(file));

/** The built files a bench names: `../dist/x.js` relative to it, or `packages/y/dist/x.js` from the repository root. */
function builtFilesNamed(file: string, source: string): string[] {
  const named: string[] = [];
  for (const match of source.matchAll(/["'`]([^"'`\s]*dist\/[^"'`\s]+\.js)["'`]/g)) {
    const path = match[1] as string;
    if (path.startsWith(".")) named.push(join(dirname(file), path));
    else if (/^(?:packages|apps)\//.test(path)) named.push(path);
  }
  return named;
}

describe("benches", () => {
  it("name only built files that exist", () => {
    expect(benchFiles.length).toBeGreaterThan(5);
    const missing = benchFiles.flatMap((file) =>
      builtFilesNamed(file, readFileSync(join(root, file), "utf8"))
        .filter((path) => !existsSync(join(root, path)))
        .map((path) => `${file}: ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it("the check reads both kinds of path (a moved file would be reported)", () => {
    const source = `import { x } from "../dist/local/dense-matrix.js";\nconst y = join(root, "packages/search-port/dist/local/index.js");`;
    expect(builtFilesNamed("packages/search-port/bench/a.mjs", source)).toEqual([
      "packages/search-port/dist/local/dense-matrix.js",
      "packages/search-port/dist/local/index.js",
    ]);
    expect(existsSync(join(root, "packages/search-port/dist/local/dense-matrix.js"))).toBe(false);
  });
});
