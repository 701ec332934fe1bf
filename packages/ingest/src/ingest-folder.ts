import { join, resolve } from "node:path";
import { TextDecoder } from "node:util";
import { ConfigurationError, errorMessage } from "@lookup-knowledge/core";
import type { KnowledgeRecord, KnowledgeWriter } from "@lookup-knowledge/search-port";
import { assertDirectory } from "./assert-directory.js";
import { chunkToRecord } from "./chunk-to-record.js";
import { decodeUtf8 } from "./decode-utf8.js";
import { DocumentError } from "./document-error.js";
import type { FileOutcome } from "./file-outcome.js";
import { hashIngestOptions } from "./hash-ingest-options.js";
import { IngestError } from "./ingest-error.js";
import type { IngestManifest } from "./ingest-manifest.js";
import type { IngestOptions } from "./ingest-options.js";
import type { IngestProgress } from "./ingest-progress.js";
import type { IngestReport } from "./ingest-report.js";
import { mapInOrder } from "./map-in-order.js";
import { parseOnCallingThread } from "./parse-on-calling-thread.js";
import { planFiles } from "./plan-files.js";
import type { PlannedFile } from "./plan-files.js";
import { ReadAhead } from "./read-ahead.js";
import { createParsePool } from "./parse-pool.js";
import type { ParsePool } from "./parse-pool.js";
import { readIngestManifest } from "./read-ingest-manifest.js";
import { resolveIngestOptions } from "./resolve-ingest-options.js";
import { scanFolder } from "./scan-folder.js";
import { sha256 } from "./sha256.js";
import { tallyFileOutcomes } from "./tally-file-outcomes.js";
import { writeIngestManifest } from "./write-ingest-manifest.js";
import { writeRecords } from "./write-records.js";

/** Below this many files, worker threads cost more to start than they save. */
const minimumFilesForWorkers = 16;
/**
 * A file this large (in bytes) is parsed on a worker thread whatever the number of files and
 * `parseWorkers` (even 1), so the calling thread stays free to act on `signal` within a moment.
 */
const largeFileBytes = 256 * 1024;
/** Files read ahead of the parse, and the bytes they may hold before it takes them (`ReadAhead`). */
const readAheadFiles = 8;
const readAheadBytes = 32 * 1024 * 1024;

/**
 * Ingests a folder of Markdown into a store, incrementally.
 *
 * 1. Scans `root` with the include/exclude globs (posix paths relative to the root, sorted).
 *    Symbolic links are not followed but listed in `skipped`; with `options.followSymlinks`,
 *    those whose real target is inside the root are, each file read once (`scanFolder`).
 * 2. Reads each file and hashes its bytes (sha256). A file whose hash (and the options) match
 *    the manifest in `dataDirectory` is unchanged and skipped without parsing.
 * 3. Decodes the others as UTF-8 (strictly) and parses them. A file that cannot be read,
 *    decoded or parsed is listed in `failed` with its reason and skipped; the rest goes on.
 *    Each parsed document's records go to `writer.embedAhead` when it has one, so a store
 *    that embeds on another thread or a service does so while the next files are parsed.
 * 4. Deletes the chunks of every document about to be rewritten (added or changed) and of
 *    every removed document (`writer.deleteDocuments`), then upserts the new chunks in
 *    batches of `batchSize`, calling `onProgress` after each batch.
 * 5. Calls `writer.commit()` when the writer has one (the embedded index stages its writes),
 *    then writes the manifest: only after every writer call succeeded and was made durable,
 *    so a crash never leaves a manifest that records writes the store lost. `signal` is
 *    checked once more just before; once the `commit` progress is reported, the commit and
 *    the manifest write run to the end whatever the signal.
 *
 * Throws `IngestError` when the root is missing or not a folder or the manifest is corrupt,
 * `ConfigurationError` for bad options, and whatever the writer throws (nothing is recorded
 * then, so the next run repeats the work). `signal` stops the run between files and batches,
 * and stops the parse workers at once.
 *
 * `parseWorkers` (default 1: measured on a 2-core machine, workers cost more CPU and memory
 * than they save) parses on that many worker threads when at least 16 files are scanned or a
 * file has 256 KB or more; 1 parses on the calling thread, except a file of 256 KB or more, which goes to one worker thread (when the
 * built `parse-worker.js` is there: not when running from the TypeScript sources). Results do
 * not depend on it. A parse past its time limit (`parseTimeLimitMs`) is stopped and the file
 * listed in `failed`; on the calling thread, see `parseOnCallingThread`.
 */
export async function ingestFolder(input: {
  root: string;
  dataDirectory: string;
  writer: KnowledgeWriter;
  options?: IngestOptions;
  batchSize?: number;
  onProgress?: (progress: IngestProgress) => void;
  signal?: AbortSignal;
  parseWorkers?: number;
  /** Ingest a different root into a data directory that holds another folder's documents, removing those. */
  replace?: boolean;
  /** Write every document again, whatever the manifest says (the store was emptied or rebuilt). */
  rebuild?: boolean;
}): Promise<IngestReport> {
  const started = performance.now();
  const { writer, signal, onProgress } = input;
  const options = resolveIngestOptions(input.options);
  const batchSize = input.batchSize ?? 256;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new ConfigurationError({ key: "batchSize", value: batchSize, reason: "must be a positive integer" });
  }
  const workers = input.parseWorkers ?? 1;
  if (!Number.isInteger(workers) || workers < 1) {
    throw new ConfigurationError({ key: "parseWorkers", value: workers, reason: "must be a positive integer" });
  }
  const root = resolve(input.root);
  await assertDirectory(root);
  signal?.throwIfAborted();

  const progress: IngestProgress = { phase: "scan", filesTotal: 0, filesDone: 0, chunksTotal: 0, chunksWritten: 0 };
  const report = (phase: IngestProgress["phase"]): void => {
    progress.phase = phase;
    onProgress?.({ ...progress });
  };
  report("scan");
  const scan = await scanFolder(root, options);
  const sources = scan.files.map((file) => file.source);
  const pathOf = new Map(scan.files.map((file) => [file.source, file.path]));
  const manifest = await readIngestManifest(input.dataDirectory);
  const previousRoot = manifest?.root;
  if (previousRoot !== undefined && previousRoot !== root && Object.keys(manifest?.documents ?? {}).length > 0 && input.replace !== true) {
    throw new IngestError({
      code: "different_ingest_root",
      path: input.dataDirectory,
      reason: `this data folder holds the knowledge base ingested from ${previousRoot}; ingesting ${root} into it would remove those documents. Use another data folder, or replace it on purpose`,
    });
  }
  const optionsHash = hashIngestOptions(options);
  const before = manifest?.documents ?? {};
  const reusable = manifest?.optionsHash === optionsHash && input.rebuild !== true ? before : {};
  const reusableNoContent = manifest?.optionsHash === optionsHash ? (manifest.noContent ?? {}) : {};
  progress.filesTotal = sources.length;
  report("parse");

  // Identity first, in path order, so a docId collision always refuses the same file.
  const planned = planFiles(sources);

  // The next files are read while this one is parsed (asynchronously, so the progress
  // display and signals are served between files).
  const reads = new ReadAhead(
    planned.map(({ source, docId }) => (docId === undefined ? undefined : (pathOf.get(source) ?? join(root, source)))),
    readAheadFiles,
    readAheadBytes,
    signal,
  );
  const indexOf = new Map(planned.map((file, index) => [file, index]));
  let pool: ParsePool | undefined;
  let poolUnavailable = false;
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  // Aborting stops the parse workers at once, even in the middle of a large file.
  const stopPool = (): void => void pool?.close();
  const startPool = (): ParsePool | undefined => {
    if (pool !== undefined || poolUnavailable) return pool;
    pool = createParsePool(workers, options);
    poolUnavailable = pool === undefined;
    return pool;
  };

  signal?.addEventListener("abort", stopPool, { once: true });
  // A store that embeds starts on the records of parsed files (in batches of `batchSize`, as
  // they will be upserted when files are parsed one at a time) while the next files are parsed.
  const ahead: KnowledgeRecord[] = [];
  const sendAhead = (all: boolean): void => {
    if (writer.embedAhead === undefined) return;
    while (ahead.length >= batchSize || (all && ahead.length > 0)) {
      const batch = ahead.splice(0, batchSize);
      // Only a hint: a writer whose `embedAhead` fails upserts the records all the same.
      try {
        const returned: unknown = writer.embedAhead(batch);
        if (returned instanceof Promise) returned.catch(() => undefined);
      } catch {
        // The upsert of these records embeds them.
      }
    }
  };
  const outcomes = await (async () => {
    try {
      const parsedFiles = await mapInOrder(planned, workers > 1 ? workers * 2 : 1, async (file): Promise<FileOutcome> => {
        signal?.throwIfAborted();
        const outcome = await ingestFile(file);
        progress.filesDone += 1;
        report("parse");
        return outcome;
      });
      sendAhead(true);
      return parsedFiles;
    } catch (error) {
      signal?.throwIfAborted();
      throw error;
    } finally {
      signal?.removeEventListener("abort", stopPool);
      reads.close();
      await pool?.close();
    }
  })();

  async function ingestFile(file: PlannedFile): Promise<FileOutcome> {
    const { source, docId } = file;
    if (docId === undefined) return { kind: "failed", source, reason: file.refused ?? "refused" };
    try {
      const bytes = await reads.read(indexOf.get(file) as number);
      const hash = sha256(bytes);
      const known = reusable[docId];
      if (known !== undefined && known.hash === hash && known.source === source) return { kind: "unchanged", docId, known };
      const empty = reusableNoContent[docId];
      if (empty !== undefined && empty.hash === hash && empty.source === source)
        return { kind: "noContent", docId, source, hash, parsed: false };
      const text = decodeUtf8(decoder, bytes, source);
      const large = bytes.length >= largeFileBytes;
      if (large || (workers > 1 && sources.length >= minimumFilesForWorkers)) startPool();
      signal?.throwIfAborted();
      // With one worker, only large files leave the calling thread.
      const onWorker = pool !== undefined && (workers > 1 || large);
      const document =
        onWorker && pool !== undefined
          ? await pool.parse(text, source)
          : await parseOnCallingThread(text, { source, options, signal, workers: startPool });
      // Nothing to index (no body text, no frontmatter title or description): not a document.
      if (document.chunks.length === 0) return { kind: "noContent", docId, source, hash, parsed: true };
      const records = document.chunks.map(chunkToRecord);
      for (const record of records) ahead.push(record);
      sendAhead(false);
      return { kind: "parsed", docId, hash, document, records };
    } catch (error) {
      signal?.throwIfAborted();
      return { kind: "failed", source, docId, reason: DocumentError.isInstance(error) ? error.reason : errorMessage(error) };
    }
  }

  const { documents, parsed, parsedRecords, failed, noContent, noContentParsed, unchanged, added, changed, removed } = tallyFileOutcomes(
    outcomes,
    before,
    input.rebuild !== true,
  );

  progress.chunksTotal = parsed.reduce((total, document) => total + document.chunks.length, 0);
  report("write");
  // Added documents (and files parsed as having no content) are deleted too: a run that stopped before saving its
  // manifest may have written some of their chunks.
  const emptied = outcomes.flatMap((outcome) =>
    outcome.kind === "noContent" && outcome.parsed && before[outcome.docId] === undefined ? [outcome.docId] : [],
  );
  const stale = [...parsed.map((document) => document.docId), ...emptied, ...removed];
  await writeRecords({
    writer,
    stale,
    records: parsedRecords,
    batchSize,
    signal,
    onBatch: (written) => {
      progress.chunksWritten += written;
      report("write");
    },
  });

  const next: IngestManifest = {
    version: 1,
    root,
    optionsHash,
    documents: sortByKey(documents),
    ...(Object.keys(noContent).length === 0 ? {} : { noContent: sortByKey(noContent) }),
  };
  const noContentChanged = noContentParsed > 0 || Object.keys(manifest?.noContent ?? {}).some((docId) => noContent[docId] === undefined);
  const dirty =
    manifest === undefined ||
    manifest.root !== root ||
    manifest.optionsHash !== optionsHash ||
    parsed.length > 0 ||
    removed.length > 0 ||
    failed.length > 0 ||
    noContentChanged;
  // Last chance to stop: from here the commit and the manifest run to the end (neither can be cut halfway).
  signal?.throwIfAborted();
  report("commit");
  // The first ingest commits even an empty folder, so the store exists afterwards.
  if ((stale.length > 0 || manifest === undefined || input.rebuild === true) && writer.commit) await writer.commit();
  if (dirty) await writeIngestManifest(input.dataDirectory, next);
  report("done");

  return {
    root: input.root,
    files: sources.length,
    parsed: parsed.length,
    unchanged,
    added,
    changed,
    removed: removed.length,
    chunksWritten: progress.chunksWritten,
    skipped: scan.skipped,
    failed,
    noContent: Object.values(noContent)
      .map((file) => file.source)
      .sort(compareStrings),
    entries: Object.values(next.documents).map((document) => document.entry),
    durationMs: performance.now() - started,
  };
}

function sortByKey<T>(record: Record<string, T>): Record<string, T> {
  const sorted: Record<string, T> = {};
  for (const key of Object.keys(record).sort(compareStrings)) sorted[key] = record[key] as T;
  return sorted;
}

function compareStrings(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
