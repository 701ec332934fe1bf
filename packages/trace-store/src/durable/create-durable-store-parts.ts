import type { LookupKnowledgeError } from "@lookup-knowledge/core";
import { createSpoolFlusher } from "../flusher/create-spool-flusher.js";
import { raiseDatabaseNewest } from "./database-newest.js";
import { createTraceDatabaseSession, type TraceDatabaseSession } from "../database/trace-database-session.js";
import type { DurableTraceStoreSettings } from "../options/durable-trace-store-options.js";
import { createTraceSpoolWithKey } from "../spool/create-trace-spool.js";
import type { QueryHashKey } from "../record/query-hash-key.js";
import { flushTraceSpool } from "../spool/flush-trace-spool.js";
import type { TraceSpool } from "../spool/trace-spool.js";
import type { SpoolFlusher } from "../flusher/spool-flusher.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";

/** What a durable trace store is made of: its spool, its database session, and the flusher that moves the one into the other. */
export interface DurableStoreParts {
  spool: TraceSpool;
  session: TraceDatabaseSession;
  flusher: SpoolFlusher;
}

/**
 * Makes the parts of a durable trace store from its checked options; `report` is told of flush
 * failures and skipped lines; the spool hashes with `queryHashKey`, the store's one key.
 */
export function createDurableStoreParts(
  settings: DurableTraceStoreSettings,
  report: (error: LookupKnowledgeError) => void,
  queryHashKey: QueryHashKey,
): DurableStoreParts {
  const { directory, database, location } = settings;
  const spool = createTraceSpoolWithKey(
    { directory, queryStorage: settings.queryStorage, ...(settings.fsync ? { fsync: settings.fsync } : {}) },
    queryHashKey,
  );
  const session = createTraceDatabaseSession({
    target: {
      ...(database ? { url: database.url } : { directory: settings.pgliteDirectory }),
      lockWaitMs: settings.lockWaitMs,
      ...(settings.connectTimeoutMs ? { connectTimeoutMs: settings.connectTimeoutMs } : {}),
    },
    idleCloseMs: settings.idleCloseMs,
  });
  const flusher = createSpoolFlusher({
    directory,
    location,
    intervalMs: settings.flushIntervalMs,
    afterRecords: settings.flushAfterRecords,
    afterBytes: settings.flushAfterBytes,
    appendedBytes: () => spool.appendedBytes,
    flushSpool: (lockWaitMs) =>
      flushTraceSpool({
        directory,
        batchSize: settings.batchSize,
        lockWaitMs,
        foreignWriterIdleMs: settings.foreignWriterIdleMs,
        insert: (records: ToolInvocationRecord[]) =>
          session.use(async (opened) => {
            // The embedded database's newest record, raised before the insert (listSpooledRecords).
            if (!database) {
              await raiseDatabaseNewest(settings.pgliteDirectory, records, async () => (await opened.list({ limit: 1 }))[0]?.createdAt);
            }
            return opened.insert(records);
          }),
        onSkipped: report,
        onRejected: report,
      }),
    report,
  });
  return { spool, session, flusher };
}
