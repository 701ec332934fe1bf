import { resolve } from "node:path";
import { assertDirectory } from "./folder-scan/assert-directory.js";
import { buildIngestReport } from "./report/build-ingest-report.js";
import { createProgressReporter } from "./report/create-progress-reporter.js";
import { defaultParseWorkers } from "./parse-pool/default-parse-workers.js";
import type { IngestFolderInput } from "./ingest-folder-input.js";
import type { IngestReport } from "./report/ingest-report.js";
import { nextIngestManifest } from "./manifest/next-ingest-manifest.js";
import { parsePlannedFiles } from "./files/parse-planned-files.js";
import { planFiles } from "./files/plan-files.js";
import { positiveIntegerOption } from "./options/positive-integer-option.js";
import { readPreviousIngest } from "./manifest/read-previous-ingest.js";
import { resolveIngestOptions } from "./options/resolve-ingest-options.js";
import { scanFolder } from "./folder-scan/scan-folder.js";
import { tallyFileOutcomes } from "./report/tally-file-outcomes.js";
import { writeIngestManifest } from "./manifest/write-ingest-manifest.js";
import { writeRecords } from "./write-records.js";
import { ownValue } from "./keyed-records/keyed-record.js";

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
 * `parseWorkers` (default `defaultParseWorkers()`: 1 unless the machine has at least 3 idle
 * cores; measured on a 2-core machine, workers cost more CPU and memory than they save)
 * parses on that many worker threads when at least 16 files are scanned or a file has 256 KB
 * or more; 1 parses on the calling thread, except a file of 256 KB or more, which goes to one worker thread (when the
 * built `parse-worker.js` is there: not when running from the TypeScript sources). Results do
 * not depend on it. A parse past its time limit (`parseTimeLimitMs`) is stopped and the file
 * listed in `failed`; on the calling thread, see `parseOnCallingThread`.
 */
export async function ingestFolder(input: IngestFolderInput): Promise<IngestReport> {
  const started = performance.now();
  const { writer, signal } = input;
  const options = resolveIngestOptions(input.options);
  const batchSize = positiveIntegerOption("batchSize", input.batchSize ?? 256);
  const workers = positiveIntegerOption("parseWorkers", input.parseWorkers ?? defaultParseWorkers());
  const root = resolve(input.root);
  await assertDirectory(root);
  signal?.throwIfAborted();

  const { progress, report } = createProgressReporter(input.onProgress);
  report("scan");
  const scan = await scanFolder(root, options);
  const sources = scan.files.map((file) => file.source);
  const previous = await readPreviousIngest({
    dataDirectory: input.dataDirectory,
    root,
    options,
    replace: input.replace,
    rebuild: input.rebuild,
  });
  const { manifest, before } = previous;
  progress.filesTotal = sources.length;
  report("parse");

  const outcomes = await parsePlannedFiles({
    // Identity first, in path order, so a docId collision always refuses the same file.
    planned: planFiles(sources),
    root,
    pathOf: new Map(scan.files.map((file) => [file.source, file.path])),
    fileCount: sources.length,
    workers,
    batchSize,
    writer,
    options,
    signal,
    previous,
    onFileDone: () => {
      progress.filesDone += 1;
      report("parse");
    },
  });
  const tally = tallyFileOutcomes(outcomes, before, input.rebuild !== true);

  progress.chunksTotal = tally.parsed.reduce((total, document) => total + document.chunks.length, 0);
  report("write");
  // Added documents (and files parsed as having no content) are deleted too: a run that stopped before saving its
  // manifest may have written some of their chunks.
  const emptied = outcomes.flatMap((outcome) =>
    outcome.kind === "noContent" && outcome.parsed && ownValue(before, outcome.docId) === undefined ? [outcome.docId] : [],
  );
  const stale = [...tally.parsed.map((document) => document.docId), ...emptied, ...tally.removed];
  await writeRecords({
    writer,
    stale,
    records: tally.parsedRecords,
    batchSize,
    signal,
    onBatch: (written) => {
      progress.chunksWritten += written;
      report("write");
    },
  });

  const { next, dirty } = nextIngestManifest(root, previous, tally);
  // Last chance to stop: from here the commit and the manifest run to the end (neither can be cut halfway).
  signal?.throwIfAborted();
  report("commit");
  // The first ingest commits even an empty folder, so the store exists afterwards.
  if ((stale.length > 0 || manifest === undefined || input.rebuild === true) && writer.commit) await writer.commit();
  if (dirty) await writeIngestManifest(input.dataDirectory, next);
  report("done");
  return buildIngestReport({ root: input.root, scan, tally, chunksWritten: progress.chunksWritten, next, started });
}
