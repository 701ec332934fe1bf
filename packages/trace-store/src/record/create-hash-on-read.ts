import { randomBytes } from "node:crypto";
import { queryHashPrefix } from "./hash-query.js";
import { applyQueryStorage, type QueryStorage, resolveQueryHashKey } from "./query-storage.js";
import type { ToolInvocationRecord } from "./tool-invocation-record.js";

/**
 * What a read of the trace folder `directory` hands out under `queryStorage`: under `hash`, a
 * record kept as text (written before `hash` was set) is hashed as a record written now would
 * be (`applyQueryStorage`, with the key the folder's query hashes are made with: `queryHashKey`,
 * else the folder's own, made on the first such read), so no read shows its text, and the same
 * query shows the same hash whether it was kept as text or hashed. Records already hashed, and
 * every record under `text`, are returned as they are.
 *
 * When the folder holds no key and one cannot be made there (a read-only folder or mount), the
 * read does not fail: such records are hashed with a random key of this process. No query was
 * hashed in that folder (it has no key), so no stored hash is there to match.
 */
export function createHashOnRead(
  directory: string,
  queryStorage: QueryStorage,
  queryHashKey: string | undefined,
): <Record extends ToolInvocationRecord>(record: Record) => Record {
  if (queryStorage === "text") return (record) => record;
  /** The key, read (or made) on the first text record met (null: not yet). */
  let key: string | null = null;
  return (record) => {
    if (record.query.startsWith(queryHashPrefix)) return record;
    key ??= readOrMakeKey(directory, queryHashKey);
    return { ...record, ...applyQueryStorage(record, "hash", key) };
  };
}

function readOrMakeKey(directory: string, queryHashKey: string | undefined): string {
  try {
    // Never undefined here (a key is made when none exists); were it, the text would be shown.
    return (
      resolveQueryHashKey(directory, { ...(queryHashKey ? { key: queryHashKey } : {}), create: true }) ?? randomBytes(32).toString("hex")
    );
  } catch (error) {
    // A file-system error making it (EROFS, EACCES, ENOTDIR...); a bad key (ConfigurationError) is the caller's to see.
    if (typeof (error as { code?: unknown } | null)?.code !== "string" || !/^E[A-Z]+$/.test((error as { code: string }).code)) throw error;
    return randomBytes(32).toString("hex");
  }
}
