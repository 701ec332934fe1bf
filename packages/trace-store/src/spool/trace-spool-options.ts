import { schemaOnDemand } from "@lookup-knowledge/core/load-zod";
import type { z as Zod } from "zod";
import type { QueryStorage } from "../record/query-storage.js";
import { isWholeNumberOption, wholeNumberOption } from "../options/whole-number-option.js";

/** When a spool calls fsync: after every record, or when it is flushed or closed. */
export type SpoolFsync = "always" | "on-flush";

/** The zod schema of a `fsync` option, built with the `z` of the schema it goes into. */
export function spoolFsyncSchema(z: typeof Zod) {
  return z.enum(["always", "on-flush"], { error: 'must be "always" or "on-flush"' });
}

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
 * The checked options of `createTraceSpool`, with their defaults. `queryStorage` and
 * `queryHashKey` are checked by `query-storage.ts` (the key is a secret no error may show).
 * Built, and zod loaded, on first use: `readPlainTraceSpoolOptions` reads plainly valid
 * options without it (issue 36 item 5).
 */
export const traceSpoolOptionsSchema = schemaOnDemand((z) =>
  z.object({
    directory: z.string({ error: "must be the path of the trace folder" }),
    fsync: spoolFsyncSchema(z).default(defaultSpoolFsync),
    maxSegmentBytes: wholeNumberOption(z, 1).default(defaultMaxSegmentBytes),
  }),
);

const defaultSpoolFsync: SpoolFsync = "on-flush";
const defaultMaxSegmentBytes = 1024 * 1024;

/** `fsync` and `maxSegmentBytes` when the options are plainly valid, with their defaults; else undefined (the schema reads them). */
export function readPlainTraceSpoolOptions(options: TraceSpoolOptions): { fsync: SpoolFsync; maxSegmentBytes: number } | undefined {
  if (options === null || typeof options !== "object" || typeof options.directory !== "string") return undefined;
  const { fsync, maxSegmentBytes } = options as { fsync?: unknown; maxSegmentBytes?: unknown };
  if (fsync !== undefined && fsync !== "always" && fsync !== "on-flush") return undefined;
  if (maxSegmentBytes !== undefined && !isWholeNumberOption(maxSegmentBytes, 1)) return undefined;
  return { fsync: fsync ?? defaultSpoolFsync, maxSegmentBytes: maxSegmentBytes ?? defaultMaxSegmentBytes };
}
