import type { TextDecoder } from "node:util";
import { errorMessage } from "@lookup-knowledge/core";
import { chunkToRecord } from "../chunking/chunk-to-record.js";
import type { EmbedAhead } from "./create-embed-ahead.js";
import type { LazyParsePool } from "../parse-pool/create-lazy-parse-pool.js";
import { decodeUtf8 } from "./decode-utf8.js";
import { DocumentError } from "../document/document-error.js";
import type { FileOutcome } from "../report/file-outcome.js";
import { parseOnCallingThread } from "../parse-pool/parse-on-calling-thread.js";
import type { PlannedFile } from "./plan-files.js";
import type { PreviousIngest } from "../manifest/read-previous-ingest.js";
import type { ResolvedIngestOptions } from "../options/resolve-ingest-options.js";
import { sha256 } from "../manifest/sha256.js";
import { ownValue } from "../keyed-records/keyed-record.js";

/** Below this many files, worker threads cost more to start than they save. */
const minimumFilesForWorkers = 16;
/**
 * A file this large (in bytes) is parsed on a worker thread whatever the number of files and
 * `parseWorkers` (even 1), so the calling thread stays free to act on `signal` within a moment.
 */
const largeFileBytes = 256 * 1024;

/** What `ingestFile` needs of the run: its reads, the manifest, its parse workers and options. */
export interface FileIngestContext {
  /** The bytes of a planned file (read ahead). */
  read: (file: PlannedFile) => Promise<Buffer>;
  previous: Pick<PreviousIngest, "reusable" | "reusableNoContent">;
  /** A fatal UTF-8 decoder. */
  decoder: TextDecoder;
  /** `parseWorkers`. */
  workers: number;
  /** How many files were scanned. */
  fileCount: number;
  pool: LazyParsePool;
  options: ResolvedIngestOptions;
  signal: AbortSignal | undefined;
  embedAhead: EmbedAhead;
}

/**
 * Reads, hashes and (unless the manifest knows the file unchanged) decodes and parses one
 * planned file, on the calling thread or a parse worker, and hands its records to
 * `embedAhead`. A file that cannot be read, decoded or parsed is `failed` with the reason;
 * an abort throws.
 */
export async function ingestFile(file: PlannedFile, context: FileIngestContext): Promise<FileOutcome> {
  const { workers, pool, options, signal } = context;
  const { source, docId } = file;
  if (docId === undefined) return { kind: "failed", source, reason: file.refused ?? "refused" };
  try {
    const bytes = await context.read(file);
    const hash = sha256(bytes);
    const known = ownValue(context.previous.reusable, docId);
    if (known !== undefined && known.hash === hash && known.source === source) return { kind: "unchanged", docId, known };
    const empty = ownValue(context.previous.reusableNoContent, docId);
    if (empty !== undefined && empty.hash === hash && empty.source === source)
      return { kind: "noContent", docId, source, hash, parsed: false };
    const text = decodeUtf8(context.decoder, bytes, source);
    const large = bytes.length >= largeFileBytes;
    if (large || (workers > 1 && context.fileCount >= minimumFilesForWorkers)) pool.start();
    signal?.throwIfAborted();
    // With one worker, only large files leave the calling thread.
    const started = pool.current;
    const onWorker = started !== undefined && (workers > 1 || large);
    const document =
      onWorker && started !== undefined
        ? await started.parse(text, source)
        : await parseOnCallingThread(text, { source, options, signal, workers: pool.start });
    // Nothing to index (no body text, no frontmatter title or description): not a document.
    if (document.chunks.length === 0) return { kind: "noContent", docId, source, hash, parsed: true };
    const records = document.chunks.map(chunkToRecord);
    context.embedAhead.add(records);
    return { kind: "parsed", docId, hash, document, records };
  } catch (error) {
    signal?.throwIfAborted();
    return { kind: "failed", source, docId, reason: DocumentError.isInstance(error) ? error.reason : errorMessage(error) };
  }
}
