import { hashQuery } from "./hash-query.js";
import { resolveQueryHashKey } from "./query-storage.js";

/**
 * The hashes a `queryText` search of the trace folder `directory` looks for: the text hashed
 * with the key the records' query hashes were made with (`queryHashKey`, else the folder's
 * own), read on the first search that needs it. None for an empty text, or when the folder has
 * no key (no query was hashed); a folder without one is looked at again on the next search, as
 * a writer (or a read under `hash`) may make it while a long-lived reader is open.
 */
export function createQueryHashesForSearch(directory: string, queryHashKey: string | undefined): (text: string | undefined) => string[] {
  /** The key once read (undefined: none yet). */
  let keyForSearch: string | undefined;
  return (text: string | undefined): string[] => {
    if (text === undefined || text === "") return [];
    keyForSearch ??= resolveQueryHashKey(directory, { ...(queryHashKey ? { key: queryHashKey } : {}), create: false });
    return keyForSearch === undefined ? [] : [hashQuery(text, keyForSearch)];
  };
}
