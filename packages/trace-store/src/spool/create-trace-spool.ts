import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import { ConfigurationError } from "@lookup-knowledge/core";
import { applyQueryStorage, resolveQueryHashKey, resolveQueryStorage, type QueryStorage } from "../query-storage.js";
import type { ToolInvocationRecord } from "../tool-invocation-record.js";
import { TraceStoreError } from "../trace-store-error.js";
import type { TraceSpool } from "./trace-spool.js";
import { liveSegments, newSegmentName, openSuffix, sealedSuffix, spoolDirectory } from "./spool-segment.js";

/** When a spool calls fsync: after every record, or when it is flushed or closed. */
export type SpoolFsync = "always" | "on-flush";

export interface TraceSpoolOptions {
  /** The trace folder; records go to its `spool/` folder. */
  directory: string;
  /**
   * `on-flush` (default): the file is fsync'd when the spool is flushed, rotated or closed.
   * A crash of the process loses nothing (the operating system holds what was written); a
   * crash of the machine may lose the records since the last fsync. `always`: every record
   * is fsync'd before `record` returns, which survives that too and costs a disk write per
   * lookup.
   */
  fsync?: SpoolFsync;
  /** A segment larger than this is sealed and a new one begun. Default 1 MiB. */
  maxSegmentBytes?: number;
  /** `text` (default) keeps queries; `hash` keeps only their keyed hashes (see `hashQuery`). */
  queryStorage?: QueryStorage;
  /** The key of query hashes; default the one kept in the trace folder (made on first use). */
  queryHashKey?: string;
}

/**
 * The write-ahead side of the durable trace store: `record` appends the record as one JSON
 * line to this spool's own segment file, synchronously, and returns. Nothing else: no
 * database is opened, so a command that only looks things up pays microseconds for its
 * trace. A flush (`createDurableTraceStore`, or `lookup-knowledge traces`) later moves the
 * spooled records into the database.
 *
 * `record` rejects (and writes nothing) when the file cannot be written; the retriever's
 * recorder then keeps the record and retries. `close` seals the segment.
 */
export function createTraceSpool(options: TraceSpoolOptions): TraceSpool {
  const traceDirectory = options.directory;
  const directory = spoolDirectory(traceDirectory);
  const fsyncPolicy = options.fsync ?? "on-flush";
  if (fsyncPolicy !== "always" && fsyncPolicy !== "on-flush") {
    throw new ConfigurationError({ key: "fsync", value: fsyncPolicy, reason: 'must be "always" or "on-flush"' });
  }
  const maxSegmentBytes = options.maxSegmentBytes ?? 1024 * 1024;
  if (!Number.isSafeInteger(maxSegmentBytes) || maxSegmentBytes < 1) {
    throw new ConfigurationError({ key: "maxSegmentBytes", value: maxSegmentBytes, reason: "must be a whole number, 1 or more" });
  }
  const queryStorage = resolveQueryStorage(options.queryStorage);
  let queryHashKey: string | undefined;
  if (queryStorage === "hash") {
    queryHashKey = resolveQueryHashKey(traceDirectory, { ...(options.queryHashKey ? { key: options.queryHashKey } : {}), create: true });
  }

  let current: { name: string; file: string; fd: number; bytes: number; dirty: boolean } | undefined;
  let closed = false;

  function seal(): void {
    if (!current) return;
    const segment = current;
    current = undefined;
    try {
      if (segment.dirty) fsyncSync(segment.fd);
    } finally {
      closeSync(segment.fd);
      // Sealed before it leaves the live set, so a flusher never takes an open file for a dead one.
      renameSync(segment.file, join(directory, `${segment.name}${sealedSuffix}`));
      liveSegments.delete(segment.file);
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

  function append(invocation: ToolInvocationRecord): void {
    if (closed) throw new TraceStoreError({ code: "trace_spool_write_failed", message: "The trace spool is closed.", location: directory });
    const stored = applyQueryStorage(invocation, queryStorage, queryHashKey);
    const line = Buffer.from(`${JSON.stringify(stored)}\n`, "utf8");
    try {
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
      if (target.bytes >= maxSegmentBytes) seal();
    } catch (error) {
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
