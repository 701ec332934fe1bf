import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

// The built command is one bundled file plus the chunks its commands load (scripts/bundle-cli.mjs),
// and `dist/bundle/inputs.json` says which modules each of those files holds.
const bundle = new URL("../../dist/bundle/", import.meta.url);
const cliRoot = new URL("../../", import.meta.url);

/**
 * The modules behind the URLs a process loaded: each file of the bundle stands for the modules it
 * holds (as file URLs of their sources: `packages/search-port/dist/local/...`, `apps/cli/src/...`);
 * any other URL (a package kept outside the bundle, a built-in) stands for itself.
 */
export function bundledModules(urls: readonly string[]): string[] {
  const inputs = JSON.parse(readFileSync(new URL("inputs.json", bundle), "utf8")) as Record<string, string[]>;
  const bundlePath = fileURLToPath(bundle);
  return urls.flatMap((url) => {
    if (!url.startsWith("file:")) return [url];
    const path = fileURLToPath(url);
    const held = path.startsWith(bundlePath) ? inputs[path.slice(bundlePath.length)] : undefined;
    return held === undefined ? [url] : held.map((input) => pathToFileURL(fileURLToPath(new URL(input, cliRoot))).href);
  });
}
