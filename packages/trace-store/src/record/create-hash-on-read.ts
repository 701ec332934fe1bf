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
 */
export function createHashOnRead(
  directory: string,
  queryStorage: QueryStorage,
  queryHashKey: string | undefined,
): <Record extends ToolInvocationRecord>(record: Record) => Record {
  if (queryStorage === "text") return (record) => record;
  /** The key, read (or made) on the first text record met (null: not yet). */
  let key: string | undefined | null = null;
  return (record) => {
    if (record.query.startsWith(queryHashPrefix)) return record;
    key ??= resolveQueryHashKey(directory, { ...(queryHashKey ? { key: queryHashKey } : {}), create: true });
    return { ...record, ...applyQueryStorage(record, "hash", key) };
  };
}
