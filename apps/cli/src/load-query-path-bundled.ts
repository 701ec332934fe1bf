import { loadCodeCachedEntry } from "./load-code-cached-entry.js";
import type { QueryPath } from "./load-query-path.js";

/**
 * The modules a `query` runs, in the bin: `dist/bundle/query-path.cjs` under a code cache (issue
 * 36 item 5). The bundle step puts this module in the place of `load-query-path.ts`.
 */
export async function loadQueryPath(): Promise<QueryPath> {
  return loadCodeCachedEntry("query-path") as QueryPath;
}
