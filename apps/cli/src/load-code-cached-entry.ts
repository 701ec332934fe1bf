import { fileURLToPath } from "node:url";
import { loadCodeCachedModule } from "./code-cached-module.js";

/** The entries the bundle step writes as CommonJS files under a code cache (scripts/bundle-cli.mjs). */
export type CodeCachedEntry = "command-line" | "query-path";

/**
 * The bin's `dist/bundle/<entry>.cjs`, compiled from its code cache when that is current, the cache
 * written afresh when it was not (issue 36 item 5: Node 20 compiles every ES module from its source
 * at every start). Its `module.exports`.
 */
export function loadCodeCachedEntry(entry: CodeCachedEntry): unknown {
  // In the bundle, this module's URL is that of its file in dist/ (scripts/bundle-cli.mjs).
  const loaded = loadCodeCachedModule(fileURLToPath(new URL(`bundle/${entry}.cjs`, import.meta.url)));
  // Once the command is over, with the functions it ran compiled: those are what the next run reuses.
  // A command that ends with `process.exit` (`--help`, a refused option) writes none: `beforeExit`
  // is not emitted then.
  process.once("beforeExit", () => loaded.saveCache());
  return loaded.exports;
}
