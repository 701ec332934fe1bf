import { randomBytes } from "node:crypto";
import { queryHashPrefix } from "./hash-query.js";
import type { QueryHashKey } from "./query-hash-key.js";
import { applyQueryStorage, type QueryStorage } from "./query-storage.js";
import type { ToolInvocationRecord } from "./tool-invocation-record.js";

/**
 * What a read of a trace folder hands out under `queryStorage`: under `hash`, a record kept as
 * text (written before `hash` was set) is hashed as a record written now would be
 * (`applyQueryStorage`, with the key the folder's query hashes are made with, `key`: the given
 * one, else the folder's own, made on the first such read), so no read shows its text, and the
 * same query shows the same hash whether it was kept as text or hashed. Records already hashed,
 * and every record under `text`, are returned as they are.
 *
 * When the folder holds no key and one cannot be made there (a read-only folder or mount), the
 * read does not fail: such records are hashed with a random key of this process. No query was
 * hashed in that folder (it has no key), so no stored hash is there to match.
 */
export function createHashOnRead(
  queryStorage: QueryStorage,
  key: QueryHashKey,
): <Record extends ToolInvocationRecord>(record: Record) => Record {
  if (queryStorage === "text") return (record) => record;
  /** This process's own key, once the folder's could not be made there. */
  let fallback: string | undefined;
  const keyOrFallback = (): string => {
    try {
      return key.ensure();
    } catch (error) {
      // A file-system error making it (EROFS, EACCES, ENOTDIR...); a bad key (ConfigurationError) is the caller's to see.
      if (typeof (error as { code?: unknown } | null)?.code !== "string" || !/^E[A-Z]+$/.test((error as { code: string }).code))
        throw error;
      fallback = randomBytes(32).toString("hex");
      return fallback;
    }
  };
  return (record) => {
    if (record.query.startsWith(queryHashPrefix)) return record;
    return { ...record, ...applyQueryStorage(record, "hash", fallback ?? keyOrFallback()) };
  };
}
