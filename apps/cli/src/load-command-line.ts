/** The command line (`command-line.ts`). The bundle step puts `load-command-line-bundled.ts` in this one's place. */
export async function loadCommandLine(): Promise<typeof import("./command-line.js")> {
  return import("./command-line.js");
}
