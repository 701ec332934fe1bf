import { spawnSync } from "node:child_process";
import { readFileSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

// The workspace's packages whose exports default to a bundle (tooling/scripts/bundle-entries.mjs):
// other packages, their tests and the apps load these bundles, not tsc's files.
const packagesFolder = realpathSync(fileURLToPath(new URL("../..", import.meta.url)));
const bundledPackages = ["core", "text", "embeddings", "search-port"];
const restoreLeewayMs = 1_000;

describe("issue 36 item 5 (review): what the bundle step wrote", () => {
  it("each bundle is not older than any of tsc's files it holds (a stale bundle would run old code where `tsc -b` alone was run)", () => {
    for (const name of bundledPackages) {
      const packageRoot = join(packagesFolder, name);
      const bundle = join(packageRoot, "dist/bundle");
      const inputs = JSON.parse(readFileSync(join(bundle, "inputs.json"), "utf8")) as Record<string, string[]>;
      const outputs = Object.keys(inputs).filter((output) => output.endsWith(".js"));
      expect(outputs.length, name).toBeGreaterThan(0);
      const built = Math.min(...outputs.map((output) => statSync(join(bundle, output)).mtimeMs));
      const held = Object.values(inputs).flat();
      // A file newer than the bundle, or gone since (renamed or removed), makes it stale. Turbo's
      // cache puts a build's files back one by one, tsc's after the bundle's (milliseconds apart):
      // a second of leeway, where a rebuild after an edit comes later.
      const newer = held.filter(
        (input) =>
          (statSync(join(packageRoot, input), { throwIfNoEntry: false })?.mtimeMs ?? Number.POSITIVE_INFINITY) > built + restoreLeewayMs,
      );
      expect(
        newer,
        `${name}'s bundle holds older copies of these files: rebuild it: pnpm --filter @lookup-knowledge/${name} build`,
      ).toEqual([]);
    }
  });

  it("an error thrown from the bundle, under --enable-source-maps, names the TypeScript source it was thrown in, as tsc's files did", () => {
    const local = pathToFileURL(join(packagesFolder, "search-port/dist/bundle/local.js")).href;
    const child = spawnSync(
      process.execPath,
      [
        "--enable-source-maps",
        "--input-type=module",
        "-e",
        `const { openLocalSearchPort } = await import(${JSON.stringify(local)});
const error = await openLocalSearchPort({ directory: "/nonexistent/search-port-source-maps", mode: "read" }).catch((error) => error);
console.log(error.stack);`,
      ],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect(child.status, child.stderr).toBe(0);
    expect(child.stdout).toContain("IndexNotFoundError");
    expect(child.stdout).toMatch(/\/search-port\/src\/local\/open-local-search-port\.ts:\d+:\d+/);
  });
});
