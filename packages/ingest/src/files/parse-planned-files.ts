import { join } from "node:path";
import { TextDecoder } from "node:util";
import type { KnowledgeWriter } from "@lookup-knowledge/search-port";
import { createEmbedAhead } from "./create-embed-ahead.js";
import { createLazyParsePool } from "../parse-pool/create-lazy-parse-pool.js";
import type { FileOutcome } from "../report/file-outcome.js";
import { ingestFile } from "./ingest-file.js";
import { mapInOrder } from "./map-in-order.js";
import type { PlannedFile } from "./plan-files.js";
import { ReadAhead } from "./read-ahead.js";
import type { PreviousIngest } from "../manifest/read-previous-ingest.js";
import type { ResolvedIngestOptions } from "../options/resolve-ingest-options.js";

/** Files read ahead of the parse, and the bytes they may hold before it takes them (`ReadAhead`). */
const readAheadFiles = 8;
const readAheadBytes = 32 * 1024 * 1024;

/**
 * The parse step of an ingest: each planned file (in path order) read, hashed, and parsed
 * when the manifest does not know it unchanged (`ingestFile`), `workers * 2` files at a time
 * with parse workers, one at a time without. `onFileDone` is called after each file. An abort
 * stops the parse workers at once and throws the signal's reason; the reads and workers are
 * let go whatever happens.
 */
export async function parsePlannedFiles(input: {
  planned: readonly PlannedFile[];
  /** The root (absolute), and the real path each source is read from. */
  root: string;
  pathOf: ReadonlyMap<string, string>;
  /** How many files were scanned. */
  fileCount: number;
  workers: number;
  batchSize: number;
  writer: KnowledgeWriter;
  options: ResolvedIngestOptions;
  signal: AbortSignal | undefined;
  previous: PreviousIngest;
  onFileDone: () => void;
}): Promise<FileOutcome[]> {
  const { planned, workers, signal } = input;
  // The next files are read while this one is parsed (asynchronously, so the progress
  // display and signals are served between files).
  const reads = new ReadAhead(
    planned.map(({ source, docId }) => (docId === undefined ? undefined : (input.pathOf.get(source) ?? join(input.root, source)))),
    readAheadFiles,
    readAheadBytes,
    signal,
  );
  const indexOf = new Map(planned.map((file, index) => [file, index]));
  const pool = createLazyParsePool(workers, input.options);
  // Aborting stops the parse workers at once, even in the middle of a large file.
  const stopPool = (): void => void pool.close();
  signal?.addEventListener("abort", stopPool, { once: true });
  const embedAhead = createEmbedAhead(input.writer, input.batchSize);
  const context = {
    read: (file: PlannedFile) => reads.read(indexOf.get(file) as number),
    previous: input.previous,
    decoder: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }),
    workers,
    fileCount: input.fileCount,
    pool,
    options: input.options,
    signal,
    embedAhead,
  };
  try {
    const parsedFiles = await mapInOrder(planned, workers > 1 ? workers * 2 : 1, async (file): Promise<FileOutcome> => {
      signal?.throwIfAborted();
      const outcome = await ingestFile(file, context);
      input.onFileDone();
      return outcome;
    });
    embedAhead.finish();
    return parsedFiles;
  } catch (error) {
    signal?.throwIfAborted();
    throw error;
  } finally {
    signal?.removeEventListener("abort", stopPool);
    reads.close();
    await pool.close();
  }
}
