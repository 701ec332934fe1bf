import { parseOptions } from "@lookup-knowledge/core";
import { createQueryHashKey, type QueryHashKey } from "../record/query-hash-key.js";
import { applyQueryStorage, resolveQueryStorage } from "../record/query-storage.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import { TraceStoreError } from "../errors/trace-store-error.js";
import { createSegmentWriter } from "./create-segment-writer.js";
import { spoolDirectory } from "./spool-segment.js";
import type { TraceSpool } from "./trace-spool.js";
import { readPlainTraceSpoolOptions, traceSpoolOptionsSchema, type TraceSpoolOptions } from "./trace-spool-options.js";
import { recordThroughAppend } from "../record/record-through-append.js";

/**
 * The write-ahead side of the durable trace store: `record` appends the record as one JSON
 * line to this spool's own segment file, synchronously, and returns. Nothing else: no
 * database is opened, so a command that only looks things up pays microseconds for its
 * trace. A flush (`createDurableTraceStore`, or `lookup-knowledge traces`) later moves the
 * spooled records into the database.
 *
 * `record` rejects (and writes nothing) when the file cannot be written; the retriever's
 * recorder then keeps the record and retries. After each append the spool checks that its
 * file is still there; a file removed under it (by a flusher that took it for finished) is
 * replaced by a new segment and the line written again. `close` seals the segment.
 */
export function createTraceSpool(options: TraceSpoolOptions): TraceSpool {
  return createTraceSpoolWithKey(options, undefined);
}

/**
 * `createTraceSpool` hashing with `sharedKey` when one is given (a durable store gives the one
 * key its searches and its reads hash with too, `createQueryHashKey`); else with its own, of
 * `options.queryHashKey` and the folder.
 */
export function createTraceSpoolWithKey(options: TraceSpoolOptions, sharedKey: QueryHashKey | undefined): TraceSpool {
  const { fsync, maxSegmentBytes } =
    readPlainTraceSpoolOptions(options) ?? parseOptions(traceSpoolOptionsSchema(), options, "createTraceSpool");
  const traceDirectory = options.directory;
  const directory = spoolDirectory(traceDirectory);
  const queryStorage = resolveQueryStorage(options.queryStorage);
  const key = sharedKey ?? createQueryHashKey(traceDirectory, options.queryHashKey || undefined);
  // A given key is checked now; the folder's own key is read (or made) on the first append,
  // so a spool that never writes never creates the trace folder.
  if (queryStorage === "hash") key.checkGiven();
  const hashKey = (): string | undefined => (queryStorage === "hash" ? key.ensure() : undefined);

  const segments = createSegmentWriter({ directory, fsync, maxSegmentBytes });
  let closed = false;

  function append(invocation: ToolInvocationRecord): void {
    if (closed) throw new TraceStoreError({ code: "trace_spool_write_failed", message: "The trace spool is closed.", location: directory });
    try {
      const stored = applyQueryStorage(invocation, queryStorage, hashKey());
      segments.writeLine(Buffer.from(`${JSON.stringify(stored)}\n`, "utf8"));
    } catch (error) {
      if (TraceStoreError.isInstance(error)) throw error;
      throw new TraceStoreError({
        code: "trace_spool_write_failed",
        message: `Could not append trace record ${invocation.id} to the spool in ${directory}: ${(error as Error).message}`,
        location: directory,
        cause: error,
      });
    }
  }

  return {
    directory: traceDirectory,
    durable: true,
    get appendedBytes() {
      return segments.appendedBytes;
    },
    append,
    record: recordThroughAppend(append),
    async flush(): Promise<void> {
      segments.flush();
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      segments.seal();
    },
  };
}
