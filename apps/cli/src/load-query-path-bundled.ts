import { fileURLToPath } from "node:url";
import { loadCodeCachedModule } from "./code-cached-module.js";
import type { QueryPath } from "./load-query-path.js";

/**
 * The modules a `query` runs, in the bin: `dist/bundle/query-path.cjs` (scripts/bundle-cli.mjs),
 * compiled from its code cache when that is current, the cache written afresh when it was not
 * (issue 36 item 5). The bundle step puts this module in the place of `load-query-path.ts`.
 */
export async function loadQueryPath(): Promise<QueryPath> {
  // In the bundle, this module's URL is that of its file in dist/ (scripts/bundle-cli.mjs).
  const loaded = loadCodeCachedModule(fileURLToPath(new URL("bundle/query-path.cjs", import.meta.url)));
  // Once the command is over, with the functions it ran compiled: those are what the next run reuses.
  process.once("beforeExit", () => loaded.saveCache());
  return loaded.exports as QueryPath;
}
