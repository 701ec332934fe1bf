import { loadCodeCachedEntry } from "./load-code-cached-entry.js";

/**
 * The command line, in the bin: `dist/bundle/command-line.cjs` under a code cache (issue 36 item
 * 5: as an ES module, its 150 KB with commander were compiled from the source at every start).
 * The bundle step puts this module in the place of `load-command-line.ts`.
 */
export async function loadCommandLine(): Promise<typeof import("./command-line.js")> {
  return loadCodeCachedEntry("command-line") as typeof import("./command-line.js");
}
