import { mkdirSync } from "node:fs";
import type { CommitHooks } from "./writer/commit-hooks.js";
import { isSegmented, storedFileEntries } from "./format/segmented-manifest.js";
import { emptySnapshot } from "./snapshot/index-snapshot.js";
import { IndexNotFoundError } from "./errors/index-not-found-error.js";
import { LocalIndexState } from "./snapshot/local-index-state.js";
import { LocalIndexReader } from "./reader/local-index-reader.js";
import type { EmbedderIdentity, LocalSearchPort } from "./port/local-search-port.js";
import type { LocalSearchPortOptions } from "./port/local-search-port-options.js";
import { LocalPortLifecycle } from "./port/local-port-lifecycle.js";
import { ManifestWatch } from "./reader/manifest-watch.js";
import { openCommittedIndex } from "./reader/open-committed-index.js";
import type { OpenedIndex } from "./reader/open-committed-index.js";
import { readLocalPortSettings } from "./port/read-local-port-settings.js";
import type { LocalPortSettings } from "./port/read-local-port-settings.js";
import { acquireDenseScanHelper } from "./dense/dense-scan-helper.js";
import type { WriteLock } from "./writer/write-lock.js";
import { readOnlyWrites } from "./port/read-only-writes.js";
import type { PortWrites } from "./port/read-only-writes.js";

/** The writer's modules, loaded only by a port opened with mode "write". */
type WriteMode = typeof import("./port/write-mode.js");

// The options are read in read-local-port-settings.ts and a committed index is opened in
// open-committed-index.ts. This file creates the port's two parts and connects them: a
// `LocalIndexReader` (reader/local-index-reader.ts: searches, fetches, a reader's refresh)
// and a `LocalIndexWriter` (writer/local-index-writer.ts: writes and commits; loaded only in
// mode "write", a reader gets port/read-only-writes.ts instead), sharing the
// index state and the port's lifecycle; and it closes them.

/**
 * Opens (a writer: creates) the local index in `options.directory` and returns a port that
 * searches it and, in mode `"write"`, changes it. See `LocalSearchPortOptions` and the
 * README for scores, fusion, the folder format and locking.
 *
 * Throws `IndexLockedError` when another writer holds the folder, `EmbedderMismatchError`
 * when the index holds vectors of another embedder (or, for a writer, when a non-empty
 * index holds no vectors but the writer brings an embedder, or the reverse),
 * `CorruptIndexError` when its files do not match its manifest, `IndexNotFoundError` when a
 * reader finds no committed index, and `ConfigurationError` for a bad option. A reader
 * with embeddings opens a lexical-only index lexical only: it never embeds a query.
 */
export function openLocalSearchPort(options: LocalSearchPortOptions): Promise<LocalSearchPort> {
  return openLocalSearchPortWithHooks(options, {});
}

/** `openLocalSearchPort` with test hooks into commits (internal, not exported from the package). */
export async function openLocalSearchPortWithHooks(options: LocalSearchPortOptions, hooks: CommitHooks): Promise<LocalSearchPort> {
  const settings = readLocalPortSettings(options);
  const { directory, mode } = settings;
  let lock: WriteLock | undefined;
  let writeMode: WriteMode | undefined;
  if (mode === "write") {
    writeMode = await import("./port/write-mode.js");
    writeMode.syncMadeFolders(directory, mkdirSync(directory, { recursive: true }));
    lock = await writeMode.acquireWriteLock(directory);
  }
  let opened: OpenedIndex | undefined;
  let port: LocalSearchPort;
  try {
    // A reader notes the manifest before reading it, so a commit landing meanwhile is seen later.
    const watch = mode === "read" ? new ManifestWatch(directory, settings.refreshIntervalMs) : undefined;
    opened = openCommittedIndex(settings);
    // Only leftovers older than the lock's stale time: a writer that lost the lock to this
    // one may still be writing its (unreferenced) files.
    writeMode?.removeUnreferencedFiles(directory, opened?.manifest, new Set(), writeMode.staleMs);
    if (opened === undefined && mode === "read") throw new IndexNotFoundError({ directory });
    port = createPort(settings, opened, { writeMode, lock, hooks }, watch);
  } catch (error) {
    await lock?.release();
    throw error;
  }
  if (opened?.analyzerStale === true) {
    // The lexicon was rebuilt with this library's analyser: commit it now, so readers can
    // use the index whether or not this writer changes anything else.
    try {
      await port.commit();
    } catch (error) {
      await port.close().catch(() => undefined);
      throw error;
    }
  }
  return port;
}

/**
 * Creates the port's reader and writer on the opened index (undefined: a writer of a new
 * index) and connects them; a reader's writes are `readOnlyWrites` (no `writeMode` loaded).
 */
function createPort(
  settings: LocalPortSettings,
  opened: OpenedIndex | undefined,
  { writeMode, lock, hooks }: { writeMode: WriteMode | undefined; lock: WriteLock | undefined; hooks: CommitHooks },
  watch: ManifestWatch | undefined,
): LocalSearchPort {
  const { directory, mode } = settings;
  const vectorEmbedder = vectorEmbedderOf(settings, opened);
  const state = new LocalIndexState(opened, mode === "write" ? (vectorEmbedder?.dimension ?? 0) : 0);
  const lifecycle = new LocalPortLifecycle(directory);
  const reader = new LocalIndexReader({ settings, state, lifecycle, watch, vectorEmbedder });
  const writer: PortWrites =
    writeMode === undefined
      ? readOnlyWrites(directory, mode, lifecycle)
      : new writeMode.LocalIndexWriter({
          settings,
          state,
          lock,
          hooks,
          vectorEmbedder,
          lifecycle,
          dirty: opened !== undefined && (opened.analyzerStale === true || opened.startedEmpty === true || !isSegmented(opened.manifest)),
          openedFiles: opened === undefined ? [] : storedFileEntries(opened.manifest).map((entry) => entry.name),
        });
  // The dense scan's helper thread (started on the first large scan) ends with the last open port.
  const releaseScanHelper = acquireDenseScanHelper();
  let closing: Promise<void> | undefined;
  // The model's operating point: what a retriever reads its judgement at unless its settings say otherwise.
  const referenceThreshold = settings.answerability?.referenceThreshold;
  return {
    search: (request) => reader.search(request),
    fetchRecords: (ids, options) => reader.fetchRecords(ids, options),
    upsert: (records, options) => writer.upsert(records, options),
    embedAhead: (records) => writer.embedAhead(records),
    deleteDocuments: (docIds, options) => writer.deleteDocuments(docIds, options),
    commit: () => writer.commit(),
    optimize: () => writer.optimize(),
    stats: () => reader.stats(),
    metadataKeys: (options) => reader.metadataKeys(options),
    termShare: (text, scope) => reader.termShare(text, scope),
    scopeSize: (scope) => reader.scopeSize(scope),
    close: () => {
      closing ??= closePort({ lifecycle, reader, writer, state, lock, releaseScanHelper });
      return closing;
    },
    ...(referenceThreshold === undefined ? {} : { referenceThreshold }),
  };
}

/** Whose vectors the state holds (a writer: the given embedder, also for an empty index; null: none). */
function vectorEmbedderOf(settings: LocalPortSettings, opened: OpenedIndex | undefined): EmbedderIdentity | null {
  if (settings.mode === "write") return settings.embeddings === undefined ? null : settings.embedder;
  return opened?.vectors !== true ? null : (opened.manifest.embedder ?? null);
}

/**
 * Refuses new calls at once; lets queued writes (a commit called before close) and running
 * searches finish first (nothing can be queued after this point); then lets go of the
 * vectors asked for ahead, the pending changes, the scan helper, the files and the lock.
 */
async function closePort(parts: {
  lifecycle: LocalPortLifecycle;
  reader: LocalIndexReader;
  writer: PortWrites;
  state: LocalIndexState;
  lock: WriteLock | undefined;
  releaseScanHelper: () => void;
}): Promise<void> {
  const { lifecycle, reader, writer, state, lock } = parts;
  lifecycle.beginClosing();
  await Promise.allSettled([writer.settled(), ...reader.inFlight()]);
  lifecycle.markClosed();
  writer.discardAhead();
  state.pending = undefined;
  // The helper thread is let go first, so a failing close of the files cannot keep it running.
  parts.releaseScanHelper();
  // The composed snapshot closes every segment's files; a segment held in memory has none.
  state.base.records.file?.close();
  state.base = emptySnapshot();
  state.segments = [];
  // A writer's stats() counts documents from the counts the state keeps: none once closed.
  state.forgetDocumentCounts();
  await lock?.release();
}
