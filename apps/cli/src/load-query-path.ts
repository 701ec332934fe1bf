/** The modules a `query` runs (`query-path.ts`). The bundle step puts `load-query-path-bundled.ts` in this one's place. */
export async function loadQueryPath(): Promise<typeof import("./query-path.js")> {
  return import("./query-path.js");
}
