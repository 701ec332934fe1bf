import { hashQuery } from "./hash-query.js";
import type { QueryHashKey } from "./query-hash-key.js";

/**
 * The hashes a `queryText` search of a trace folder looks for: the text hashed with the key the
 * records' query hashes were made with (`key`: the given one, else the folder's own), read on the
 * first search that needs it. None for an empty text, or when the folder has no key (no query was
 * hashed); a folder without one is looked at again on the next search, as a writer (or a read
 * under `hash`) may make it while a long-lived reader is open.
 */
export function createQueryHashesForSearch(key: QueryHashKey): (text: string | undefined) => string[] {
  return (text: string | undefined): string[] => {
    if (text === undefined || text === "") return [];
    const known = key.known();
    return known === undefined ? [] : [hashQuery(text, known)];
  };
}
