import { mkdirSync } from "node:fs";
import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { MetadataFilter, SearchHit } from "@lookup-knowledge/core";
import { throwIfAborted } from "../internal/abort.js";
import { readRecordIds } from "../internal/read-record-ids.js";
import { readSearchRequest } from "../internal/read-search-request.js";
import { validateMetadataFilter } from "../validate-metadata-filter.js";
import type { FetchedRecord } from "../knowledge-record-reader.js";
import type { SearchPortErrorCode } from "../search-port-error-code.js";
import type { SearchRequest } from "../search-request.js";
import type { CommitHooks } from "./writer/commit-hooks.js";
import { countDocuments } from "./snapshot/count-documents.js";
import { manifestFileEntries, sameCommit } from "./format/index-manifest.js";
import { emptySnapshot } from "./snapshot/index-snapshot.js";
import type { IndexSnapshot } from "./snapshot/index-snapshot.js";
import type { PendingChanges } from "./snapshot/pending-changes.js";
import { fetchLocalRecords } from "./reader/fetch-local-records.js";
import { termShare } from "./lexical/term-share.js";
import { IndexNotFoundError } from "./errors/index-not-found-error.js";
import { LocalIndexState } from "./writer/local-index-state.js";
import { createLocalIndexWriter } from "./writer/local-index-writer.js";
import type { EmbedderIdentity, LocalIndexStats, LocalSearchPort, LocalSearchPortOptions } from "./port/local-search-port.js";
import { ManifestWatch } from "./reader/manifest-watch.js";
import { manifestBytes } from "./format/manifest-text.js";
import { openCommittedIndex } from "./reader/open-committed-index.js";
import type { OpenedIndex } from "./reader/open-committed-index.js";
import { readManifest } from "./format/read-manifest.js";
import { readLocalPortSettings } from "./port/read-local-port-settings.js";
import type { LocalPortSettings } from "./port/read-local-port-settings.js";
import { attemptRefresh } from "./reader/reader-refresh.js";
import type { RefreshError } from "./reader/reader-refresh.js";
import { removeUnreferencedFiles } from "./writer/remove-unreferenced-files.js";
import { scopedSnapshot } from "./snapshot/scoped-snapshot.js";
import { searchLocalIndex } from "./reader/search-local-index.js";
import { SnapshotLeases } from "./snapshot/snapshot-leases.js";
import { acquireDenseScanHelper } from "./dense/dense-scan-helper.js";
import { acquireWriteLock, staleMs } from "./writer/write-lock.js";
import type { WriteLock } from "./writer/write-lock.js";

// The options are read in read-local-port-settings.ts, a committed index is opened in
// open-committed-index.ts, writes and commits run in local-index-writer.ts and searches in
// search-local-index.ts. This file wires them and holds the port's lifecycle
// (open, closing, closed) and a reader's refresh.

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
  if (mode === "write") {
    mkdirSync(directory, { recursive: true });
    lock = await acquireWriteLock(directory);
  }
  let opened: OpenedIndex | undefined;
  let port: LocalSearchPort;
  try {
    // A reader notes the manifest before reading it, so a commit landing meanwhile is seen later.
    const watch = mode === "read" ? new ManifestWatch(directory, settings.refreshIntervalMs) : undefined;
    opened = openCommittedIndex(settings);
    // Only leftovers older than the lock's stale time: a writer that lost the lock to this
    // one may still be writing its (unreferenced) files.
    if (mode === "write") removeUnreferencedFiles(directory, opened?.manifest, new Set(), staleMs);
    if (opened === undefined && mode === "read") throw new IndexNotFoundError({ directory });
    port = createPort(settings, opened, lock, hooks, watch);
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

function createPort(
  settings: LocalPortSettings,
  opened: OpenedIndex | undefined,
  lock: WriteLock | undefined,
  hooks: CommitHooks,
  watch: ManifestWatch | undefined,
): LocalSearchPort {
  const { directory, mode, embeddings } = settings;
  /** Whose vectors the state holds (a writer: the given embedder, also for an empty index). */
  const vectorEmbedder: EmbedderIdentity | null =
    mode === "write"
      ? embeddings === undefined
        ? null
        : settings.embedder
      : opened?.vectors !== true
        ? null
        : (opened.manifest.embedder ?? null);
  const state = new LocalIndexState(opened, mode === "write" ? (vectorEmbedder?.dimension ?? 0) : 0);
  /**
   * `closing`: `close` was called; new calls are refused, but queued writes and searches
   * already running finish. `closed`: they have, and the files and lock are released.
   */
  let lifecycle: "open" | "closing" | "closed" = "open";
  let closing: Promise<void> | undefined;
  /** Searches that have started and not yet settled (`close` waits for them). */
  const searches = new Set<Promise<unknown>>();
  /** A reader's snapshots in use by searches (a superseded one closes when the last lets go). */
  const leases = new SnapshotLeases();
  /** A reader: why the newest commit could not be loaded (it serves the one it has), if it could not. */
  let refreshError: RefreshError | undefined;

  function closedError(): LookupKnowledgeError {
    return new LookupKnowledgeError<SearchPortErrorCode>({
      code: "index_closed",
      message: lifecycle === "closing" ? `The local index at ${directory} is closing` : `The local index at ${directory} was closed`,
    });
  }

  /** For a new call: refused once `close` was called. */
  function ensureOpen(): void {
    if (lifecycle !== "open") throw closedError();
  }

  /** For work already accepted (queued or running): refused only once the port is closed. */
  function ensureNotClosed(): void {
    if (lifecycle === "closed") throw closedError();
  }

  const writer = createLocalIndexWriter({
    settings,
    state,
    lock,
    hooks,
    vectorEmbedder,
    lifecycle: { ensureOpen, ensureNotClosed },
    dirty: opened?.analyzerStale === true || opened?.startedEmpty === true,
    openedFiles: opened === undefined ? [] : manifestFileEntries(opened.manifest).map((entry) => entry.name),
  });

  /** A reader: switches to a newer committed generation, if the (throttled) check finds one. */
  // A commit it cannot load leaves the reader on the one it has (reader-refresh.ts).
  function refresh(): void {
    const signature = watch?.changed();
    if (signature === undefined) return;
    const outcome = attemptRefresh(
      () => {
        const onDisk = readManifest(directory);
        if (onDisk !== undefined && !sameCommit(onDisk, state.manifest)) {
          const next = openCommittedIndex(settings);
          if (next === undefined) return false;
          leases.retire(state.base);
          state.manifest = next.manifest;
          state.base = next.snapshot;
        }
        return true;
      },
      { loaded: state.manifest !== undefined, previous: refreshError, report: settings.onRefreshError },
    );
    refreshError = outcome.error;
    if (outcome.accept) watch?.accept(signature);
  }

  function search(request: SearchRequest): Promise<SearchHit[]> {
    const running = runSearch(request);
    searches.add(running);
    const settle = () => searches.delete(running);
    running.then(settle, settle);
    return running;
  }

  async function runSearch(request: SearchRequest): Promise<SearchHit[]> {
    ensureOpen();
    const signal = request.signal;
    throwIfAborted(signal);
    const parsed = readSearchRequest(request);
    const view = { dimension: state.dimension, current: () => state.current(), ensureNotClosed };
    if (mode === "write") return searchLocalIndex(settings, view, undefined, parsed, signal);
    refresh();
    const pinned = state.base;
    const release = leases.acquire(pinned);
    try {
      return await searchLocalIndex(settings, view, pinned, parsed, signal);
    } finally {
      release();
    }
  }

  function fetchRecords(ids: readonly string[], options: { signal?: AbortSignal } = {}): Promise<Array<FetchedRecord | undefined>> {
    const running = (async () => {
      ensureOpen();
      throwIfAborted(options.signal);
      const checked = readRecordIds(ids);
      if (mode === "write") return fetchLocalRecords(state.current(), checked, directory);
      refresh();
      const pinned = state.base;
      const release = leases.acquire(pinned);
      try {
        return fetchLocalRecords(pinned, checked, directory);
      } finally {
        release();
      }
    })();
    searches.add(running);
    const settle = () => searches.delete(running);
    running.then(settle, settle);
    return running;
  }

  function termShareOf(text: string, scope?: MetadataFilter): number {
    ensureOpen();
    if (typeof text !== "string")
      throw new LookupKnowledgeError<SearchPortErrorCode>({ code: "invalid_argument", message: "termShare: expected a string" });
    return termShare(committedScope(scope), text);
  }

  function scopeSizeOf(scope?: MetadataFilter): number {
    ensureOpen();
    return committedScope(scope).count;
  }

  /** The committed index as `scope` sees it (`scopedSnapshot`); a malformed scope is refused. */
  function committedScope(scope: MetadataFilter | undefined): IndexSnapshot {
    const checked = scope === undefined ? undefined : validateMetadataFilter(scope);
    if (mode === "read") refresh();
    return scopedSnapshot(state.base, checked, directory);
  }

  function stats(): LocalIndexStats {
    const { base, pending, manifest } = state;
    const embedder = vectorEmbedder ?? (mode === "read" ? (manifest?.embedder ?? null) : null);
    return {
      ...(mode === "read" ? { documents: manifest?.documents ?? 0, chunks: manifest?.chunks ?? 0 } : writerCounts(base, pending)),
      ...(embedder === null ? {} : { embedder: { ...embedder } }),
      bytesOnDisk: manifest === undefined ? 0 : manifestBytes(manifest),
      ...(manifest === undefined ? {} : { lastCommit: manifest.committedAt }),
      ...(refreshError === undefined ? {} : { refreshError: { ...refreshError } }),
    };
  }

  function close(): Promise<void> {
    closing ??= (async () => {
      // Refuse new calls at once; let queued writes (a commit called before close) and
      // running searches finish first. Nothing can be queued after this point.
      lifecycle = "closing";
      await Promise.allSettled([writer.settled(), ...searches]);
      lifecycle = "closed";
      writer.discardAhead();
      state.pending = undefined;
      // The helper thread is let go first, so a failing close of the files cannot keep it running.
      releaseScanHelper();
      state.base.records.file?.close();
      state.base = emptySnapshot();
      await lock?.release();
    })();
    return closing;
  }

  // The dense scan's helper thread (started on the first large scan) ends with the last open port.
  const releaseScanHelper = acquireDenseScanHelper();
  const { upsert, embedAhead, deleteDocuments, commit } = writer;
  // The model's operating point: what a retriever reads its judgement at unless its settings say otherwise.
  const referenceThreshold = settings.answerability?.referenceThreshold;
  return {
    search,
    fetchRecords,
    upsert,
    embedAhead,
    deleteDocuments,
    commit,
    stats,
    termShare: termShareOf,
    scopeSize: scopeSizeOf,
    close,
    ...(referenceThreshold === undefined ? {} : { referenceThreshold }),
  };
}

/** A writer's documents and chunks: its snapshot without the removed slots, with the added records. */
function writerCounts(base: IndexSnapshot, pending: PendingChanges | undefined): { documents: number; chunks: number } {
  const removed = pending?.removed;
  const docIds: Array<string | null> = [];
  base.keys.arrays().docIds.forEach((docId, slot) => {
    if (removed?.[slot] !== 1) docIds.push(docId);
  });
  for (const record of pending?.added.values() ?? []) docIds.push(record.docId);
  return { documents: countDocuments(docIds), chunks: docIds.length };
}
