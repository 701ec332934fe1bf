import { fileURLToPath } from "node:url";
import { loadCodeCachedModule } from "./code-cached-module.js";

/**
 * The command line, in the bin: `dist/bundle/command-line.cjs` (scripts/bundle-cli.mjs), compiled
 * from its code cache when that is current, the cache written afresh when it was not (issue 36
 * item 5: as an ES module, its 150 KB with commander were compiled from the source at every
 * start). The bundle step puts this module in the place of `load-command-line.ts`.
 */
export async function loadCommandLine(): Promise<typeof import("./command-line.js")> {
  // In the bundle, this module's URL is that of its file in dist/ (scripts/bundle-cli.mjs).
  const loaded = loadCodeCachedModule(fileURLToPath(new URL("bundle/command-line.cjs", import.meta.url)));
  // Once the command is over, with the functions it ran compiled. A command that ends with
  // `process.exit` (`--help`, a refused option) writes none: `beforeExit` is not emitted then.
  process.once("beforeExit", () => loaded.saveCache());
  return loaded.exports as typeof import("./command-line.js");
}
