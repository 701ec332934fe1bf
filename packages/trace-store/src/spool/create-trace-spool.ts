import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import { parseOptions } from "@lookup-knowledge/core";
import { applyQueryStorage, resolveQueryHashKey, resolveQueryStorage } from "../query-storage.js";
import type { ToolInvocationRecord } from "../tool-invocation-record.js";
import { TraceStoreError } from "../trace-store-error.js";
import type { TraceSpool } from "./trace-spool.js";
import { traceSpoolOptionsSchema, type TraceSpoolOptions } from "./trace-spool-options.js";
import { liveSegments, newSegmentName, openSuffix, sealedSuffix, spoolDirectory } from "./spool-segment.js";

/** How many times a line is written into a new segment when its segment is removed under it. */
const maxRewrites = 3;

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
  const { fsync: fsyncPolicy, maxSegmentBytes } = parseOptions(traceSpoolOptionsSchema, options, "createTraceSpool");
  const traceDirectory = options.directory;
  const directory = spoolDirectory(traceDirectory);
  const queryStorage = resolveQueryStorage(options.queryStorage);
  // A given key is checked now; the folder's own key is read (or made) on the first append,
  // so a spool that never writes never creates the trace folder.
  let queryHashKey =
    queryStorage === "hash" && options.queryHashKey
      ? resolveQueryHashKey(traceDirectory, { key: options.queryHashKey, create: false })
      : undefined;
  const hashKey = (): string | undefined => {
    if (queryStorage !== "hash") return undefined;
    queryHashKey ??= resolveQueryHashKey(traceDirectory, { create: true });
    return queryHashKey;
  };

  let current: { name: string; file: string; fd: number; bytes: number; dirty: boolean } | undefined;
  let closed = false;
  let appendedBytes = 0;

  /**
   * fsyncs, closes and renames the current segment to `.jsonl`. A segment already gone (a
   * flusher took it for finished and removed it) is no error; any other failure throws
   * `TraceStoreError` once the segment is closed and forgotten here, so a flush takes it.
   */
  function seal(): void {
    if (!current) return;
    const segment = current;
    current = undefined;
    let failure: unknown;
    try {
      if (segment.dirty) fsyncSync(segment.fd);
    } catch (error) {
      failure = error;
    }
    try {
      closeSync(segment.fd);
    } catch (error) {
      failure ??= error;
    }
    try {
      // Sealed before it leaves the live set, so a flusher never takes an open file for a dead one.
      renameSync(segment.file, join(directory, `${segment.name}${sealedSuffix}`));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") failure ??= error;
    } finally {
      liveSegments.delete(segment.file);
    }
    if (failure !== undefined) {
      throw new TraceStoreError({
        code: "trace_spool_write_failed",
        message: `Could not seal the trace spool segment ${segment.file}: ${(failure as Error)?.message ?? String(failure)}. It stays as it is and a flush reads it.`,
        location: segment.file,
        cause: failure,
      });
    }
  }

  function segment(): NonNullable<typeof current> {
    if (current) return current;
    mkdirSync(directory, { recursive: true });
    const name = newSegmentName();
    const file = join(directory, `${name}${openSuffix}`);
    const fd = openSync(file, "a", 0o600);
    liveSegments.add(file);
    current = { name, file, fd, bytes: 0, dirty: false };
    return current;
  }

  /** Forgets a segment whose file was removed under it (it holds nothing to seal). */
  function abandon(target: NonNullable<typeof current>): void {
    if (current === target) current = undefined;
    liveSegments.delete(target.file);
    try {
      closeSync(target.fd);
    } catch {
      // Closing a removed file's descriptor cannot lose anything.
    }
  }

  /** Seals a full segment; the record is written already, so a failure only leaves the segment open for a flush to take. */
  function rotate(): void {
    try {
      seal();
    } catch {
      // The segment left the live set: a flush takes it as finished, nothing is lost.
    }
  }

  function append(invocation: ToolInvocationRecord): void {
    if (closed) throw new TraceStoreError({ code: "trace_spool_write_failed", message: "The trace spool is closed.", location: directory });
    try {
      const stored = applyQueryStorage(invocation, queryStorage, hashKey());
      const line = Buffer.from(`${JSON.stringify(stored)}\n`, "utf8");
      for (let attempt = 1; ; attempt += 1) {
        const target = segment();
        // One write of the whole line; a short write (rare on a local file) is completed.
        let written = 0;
        while (written < line.length) written += writeSync(target.fd, line, written, line.length - written);
        target.bytes += line.length;
        target.dirty = true;
        if (fsyncPolicy === "always") {
          fsyncSync(target.fd);
          target.dirty = false;
        }
        // Removed by a flusher that took its writer for finished (another host or PID
        // namespace, after the idle window): the line may have gone with it, so it is written
        // again into a new segment. A line read twice is inserted once.
        if (fstatSync(target.fd).nlink === 0) {
          abandon(target);
          if (attempt < maxRewrites) continue;
          throw new Error(`the spool segment ${target.file} was removed while being written, ${maxRewrites} times in a row`);
        }
        appendedBytes += line.length;
        if (target.bytes >= maxSegmentBytes) rotate();
        return;
      }
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
      return appendedBytes;
    },
    append,
    record(invocation: ToolInvocationRecord): Promise<void> {
      try {
        append(invocation);
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    },
    async flush(): Promise<void> {
      if (current?.dirty) {
        fsyncSync(current.fd);
        current.dirty = false;
      }
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      seal();
    },
  };
}
