import { hashQuery } from "./hash-query.js";
import { resolveQueryHashKey } from "./query-storage.js";

/**
 * The hashes a `queryText` search of the trace folder `directory` looks for: the text hashed
 * with the key the records' query hashes were made with (`queryHashKey`, else the folder's
 * own), read on the first search that needs it. None for an empty text, or when the folder has
 * no key (no query was hashed).
 */
export function createQueryHashesForSearch(directory: string, queryHashKey: string | undefined): (text: string | undefined) => string[] {
  /** The key, read once (null: not read yet). */
  let keyForSearch: string | undefined | null = null;
  return (text: string | undefined): string[] => {
    if (text === undefined || text === "") return [];
    if (keyForSearch === null) {
      keyForSearch = resolveQueryHashKey(directory, { ...(queryHashKey ? { key: queryHashKey } : {}), create: false });
    }
    return keyForSearch === undefined ? [] : [hashQuery(text, keyForSearch)];
  };
}
