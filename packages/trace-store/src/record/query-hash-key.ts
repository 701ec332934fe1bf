import { resolveQueryHashKey } from "./query-storage.js";

/**
 * The key of a trace folder's query hashes, read once for everything that hashes with it (a
 * durable store's spool, its searches and its hashing on read): the given key, else the folder's
 * own `query-hash.key`. Once read it is kept, so they all hash with the same key for the life of
 * the store, and the file is read once, not once by each of them.
 */
export interface QueryHashKey {
  /** The key, when one is given or the folder holds one; undefined otherwise (looked for again at the next call). */
  known(): string | undefined;
  /** The key, made in the folder (`resolveQueryHashKey`, `create`) when none is there yet. */
  ensure(): string;
  /** Checks the given key now (it throws `ConfigurationError` when too short); reads no file. */
  checkGiven(): void;
}

/** The query-hash key of the trace folder `directory`; `given` (checked at first use) comes before the folder's. */
export function createQueryHashKey(directory: string, given: string | undefined): QueryHashKey {
  let key: string | undefined;
  const resolve = (create: boolean): string | undefined => resolveQueryHashKey(directory, { ...(given ? { key: given } : {}), create });
  return {
    known() {
      key ??= resolve(false);
      return key;
    },
    ensure() {
      key ??= resolve(true);
      // resolveQueryHashKey makes a key (or throws) when asked to create one.
      if (key === undefined) throw new Error(`No query-hash key could be made in ${directory}`);
      return key;
    },
    checkGiven() {
      if (given) key ??= resolveQueryHashKey(directory, { key: given, create: false });
    },
  };
}
