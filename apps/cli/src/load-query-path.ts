/** What a `query` runs past the command line (`query-path.ts`). */
export type QueryPath = typeof import("./query-path.js");

/** The modules a `query` runs (`query-path.ts`). The bundle step puts `load-query-path-bundled.ts` in this one's place. */
export async function loadQueryPath(): Promise<QueryPath> {
  return import("./query-path.js");
}
