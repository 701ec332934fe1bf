import { InvalidWriteError } from "../invalid-write-error.js";
import type { SearchPortErrorCode } from "../search-port-error-code.js";
import { mkdirSync, renameSync } from "node:fs";
import { join, resolve } from "node:path";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { ConfigurationError, LookupKnowledgeError, readDocId } from "@lookup-knowledge/core";
import type { SearchHit } from "@lookup-knowledge/core";
import { analyzerVersion, lexicalTerms } from "@lookup-knowledge/text";
import { withUnseenCjkPieces } from "./unseen-cjk-pieces.js";
import { z } from "zod";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { matchesFilter } from "../matches-filter.js";
import type { SearchRequest } from "../search-request.js";
import { readSearchRequest } from "../internal/read-search-request.js";
import { raceWithAbort, throwIfAborted } from "../internal/abort.js";
import { CorruptIndexError } from "./corrupt-index-error.js";
import { quantiseVector, strideFor } from "./dense-matrix.js";
import { AnalyzerMismatchError } from "./analyzer-mismatch-error.js";
import { EmbedderMismatchError } from "./embedder-mismatch-error.js";
import { rebuildLexicon } from "./rebuild-lexicon.js";
import type { FileRecords } from "./file-records.js";
import type { CommitHooks } from "./commit-hooks.js";
import { countDocuments } from "./count-documents.js";
import { loadGeneration } from "./load-generation.js";
import { manifestBytes, manifestText } from "./manifest-text.js";
import { MissingDataFileError } from "./missing-data-file-error.js";
import { openRecordFiles } from "./open-record-files.js";
import { readManifest } from "./read-manifest.js";
import { removeFiles, removeUnreferencedFiles } from "./remove-unreferenced-files.js";
import { syncDirectory } from "./sync-directory.js";
import { writeGeneration } from "./write-generation.js";
import { writeNewFileSync } from "./write-new-file-sync.js";
import { manifestFileName, manifestTemporaryName, newCommitId, recordedAnalyzerVersion, sameCommit } from "./index-manifest.js";
import type { IndexManifest } from "./index-manifest.js";
import { IndexNotFoundError } from "./index-not-found-error.js";
import { emptySnapshot, recordContent, recordMetadata, sharedMetadata } from "./index-snapshot.js";
import type { IndexSnapshot } from "./index-snapshot.js";
import type { EmbedderIdentity, LocalIndexStats, LocalSearchPort, LocalSearchPortOptions } from "./local-search-port.js";
import { mergeSnapshot } from "./merge-snapshot.js";
import { PendingChanges } from "./pending-changes.js";
import { answerabilityModelName, parseAnswerabilityModel, scoreAnswerability, type AnswerabilityModel } from "./answerability-model.js";
import { defaultAnswerabilityModel } from "./default-answerability-model.js";
import { searchSnapshot } from "./search-snapshot.js";
import { acquireWriteLock, lostLockError, staleMs } from "./write-lock.js";
import { ManifestWatch, defaultRefreshIntervalMs } from "./manifest-watch.js";
import { SnapshotLeases } from "./snapshot-leases.js";
import { attemptRefresh, warnRefreshError } from "./reader-refresh.js";
import type { RefreshError } from "./reader-refresh.js";
import type { WriteLock } from "./write-lock.js";

/**
 * The default weight of the dense score in the fused score, chosen on the dev halves of
 * SciFact and Cranfield with the offline embedder (README, "Fusion"; `pnpm bench`).
 */
export const defaultDenseWeight = 0.3;

/**
 * The default cosine floor: about what unrelated texts reach with the offline embedder.
 * The dense score is the cosine's excess over it, stretched to 0..1 (README, "Score").
 */
export const defaultDenseFloor = 0.3;

/** The default minimum-evidence cut on the returned score (README, "Score"). */
export const defaultMinScore = 0.2;

const identitySchema = z.strictObject({
  id: z.string().min(1),
  version: z.string(),
  dimension: z.number().int().positive(),
});

interface Settings {
  directory: string;
  mode: "read" | "write";
  embeddings: EmbeddingsInterface | undefined;
  embedder: EmbedderIdentity | null;
  denseWeight: number;
  denseFloor: number;
  minScore: number;
  answerability: AnswerabilityModel | undefined;
  refreshIntervalMs: number;
  onRefreshError: (error: Error) => void;
}

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
  const settings = readSettings(options);
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
    opened = openCommitted(settings);
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

function readSettings(options: LocalSearchPortOptions): Settings {
  if (typeof options !== "object" || options === null) {
    throw new ConfigurationError({ key: "options", value: options, reason: "expected an object with a directory" });
  }
  if (typeof options.directory !== "string" || options.directory.trim() === "") {
    throw new ConfigurationError({ key: "directory", value: options.directory, reason: "expected the path of the index folder" });
  }
  const mode = options.mode ?? "read";
  if (mode !== "read" && mode !== "write") {
    throw new ConfigurationError({ key: "mode", value: mode, reason: 'expected "read" or "write"' });
  }
  const denseWeight = readFraction("denseWeight", options.denseWeight, defaultDenseWeight);
  const minScore = readFraction("minScore", options.minScore, defaultMinScore);
  const denseFloor = readFraction("denseFloor", options.denseFloor, defaultDenseFloor);
  if (denseFloor >= 1) throw new ConfigurationError({ key: "denseFloor", value: denseFloor, reason: "expected a number from 0 to below 1" });
  const embeddings = options.embeddings;
  if (
    embeddings !== undefined &&
    (typeof embeddings !== "object" ||
      embeddings === null ||
      typeof embeddings.embedQuery !== "function" ||
      typeof embeddings.embedDocuments !== "function")
  ) {
    throw new ConfigurationError({
      key: "embeddings",
      value: embeddings,
      reason: "expected a LangChain Embeddings (embedQuery and embedDocuments)",
    });
  }
  const declared = options.embedder ?? (embeddings as { identity?: unknown } | undefined)?.identity;
  let embedder: EmbedderIdentity | null = null;
  if (declared !== undefined) {
    const parsed = identitySchema.safeParse(declared);
    if (!parsed.success) {
      throw new ConfigurationError({
        key: "embedder",
        value: declared,
        reason: "expected { id: non-empty string, version: string, dimension: positive integer }",
      });
    }
    embedder = parsed.data;
  } else if (embeddings !== undefined) {
    throw new ConfigurationError({
      key: "embedder",
      value: undefined,
      reason: "these embeddings have no identity: pass embedder { id, version, dimension } so the index can record whose vectors it holds",
    });
  }
  if (mode === "write" && embedder !== null && embeddings === undefined) {
    throw new ConfigurationError({
      key: "embeddings",
      value: undefined,
      reason: "a writer given an embedder identity needs the embeddings too, to embed the records it upserts",
    });
  }
  const answerability =
    options.answerability === false
      ? undefined
      : options.answerability === undefined
        ? defaultAnswerabilityModel
        : parseAnswerabilityModel(options.answerability);
  const refreshIntervalMs = options.refreshIntervalMs ?? defaultRefreshIntervalMs;
  if (typeof refreshIntervalMs !== "number" || !Number.isFinite(refreshIntervalMs) || refreshIntervalMs < 0) {
    throw new ConfigurationError({ key: "refreshIntervalMs", value: refreshIntervalMs, reason: "expected milliseconds, 0 or more" });
  }
  const onRefreshError = options.onRefreshError ?? warnRefreshError;
  if (typeof onRefreshError !== "function") {
    throw new ConfigurationError({ key: "onRefreshError", value: onRefreshError, reason: "expected a function" });
  }
  return { directory: resolve(options.directory), mode, embeddings, embedder, denseWeight, denseFloor, minScore, answerability, refreshIntervalMs, onRefreshError };
}

function readFraction(key: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new ConfigurationError({ key, value, reason: "expected a number from 0 to 1" });
  }
  return value;
}


function sameEmbedder(left: EmbedderIdentity | null, right: EmbedderIdentity | null): boolean {
  if (left === null || right === null) return left === right;
  return left.id === right.id && left.version === right.version && left.dimension === right.dimension;
}

/** A committed generation as read; `analyzerStale`: a writer's, whose lexicon was rebuilt with this analyser. */
interface OpenedIndex {
  manifest: IndexManifest;
  snapshot: IndexSnapshot;
  analyzerStale?: boolean;
}

/**
 * Reads the committed generation, retrying when a writer removed its files meanwhile. An
 * index of another analyser version is refused to a reader (`AnalyzerMismatchError`); a
 * writer re-indexes all its records with this one.
 */
function openCommitted(settings: Settings): OpenedIndex | undefined {
  const { directory, mode, embedder, embeddings, denseWeight } = settings;
  for (let attempt = 0; ; attempt += 1) {
    const manifest = readManifest(directory);
    if (manifest === undefined) return undefined;
    if (manifest.chunks > 0) {
      // A reader without an embedder searches an index with vectors lexically, and a reader
      // with one searches a lexical-only index lexically. A writer never mixes: records with
      // and without vectors (or of two embedders) in one index are refused.
      const compatible =
        mode === "read" && (embedder === null || manifest.embedder === null) ? true : sameEmbedder(manifest.embedder, embedder);
      if (!compatible) {
        throw new EmbedderMismatchError({ directory, indexEmbedder: manifest.embedder, givenEmbedder: embedder });
      }
    }
    const indexAnalyzer = recordedAnalyzerVersion(manifest);
    const analyzerStale = indexAnalyzer !== analyzerVersion;
    if (analyzerStale && mode === "read") {
      throw new AnalyzerMismatchError({ directory, indexAnalyzer, libraryAnalyzer: analyzerVersion });
    }
    const loadVectors =
      embeddings !== undefined && manifest.embedder !== null && (mode === "write" || denseWeight > 0);
    try {
      const snapshot = loadGeneration(directory, manifest, loadVectors);
      if (!analyzerStale) return { manifest, snapshot };
      const textOf = (slot: number): string =>
        indexedText({ id: "", content: recordContent(snapshot.records, slot), metadata: sharedMetadata(snapshot.records, slot, directory) });
      return { manifest, snapshot: rebuildLexicon(snapshot, textOf, lexicalTerms), analyzerStale };
    } catch (error) {
      if (!(error instanceof MissingDataFileError)) throw error;
      const now = readManifest(directory);
      if (attempt < 5 && now !== undefined && !sameCommit(now, manifest)) continue;
      throw new CorruptIndexError({ directory, reason: `${error.message}, listed in ${manifestFileName}, is missing` });
    }
  }
}

function indexedText(record: KnowledgeRecord): string {
  const title = record.metadata["title"];
  return typeof title === "string" && title.trim() !== "" ? `${title}\n${record.content}` : record.content;
}

/** The record, once its id and content are strings and its metadata an object; else an `InvalidWriteError` naming it. */
function checkRecord(record: unknown, index: number): KnowledgeRecord {
  const invalidRecord = (message: string) => new InvalidWriteError({ code: "invalid_record", operation: "upsert", message });
  const where = `upsert: record ${index}`;
  if (typeof record !== "object" || record === null) throw invalidRecord(`${where} is not an object`);
  const { id, content, metadata } = record as Partial<KnowledgeRecord>;
  if (typeof id !== "string" || id === "") throw invalidRecord(`${where} needs a non-empty string id (got ${JSON.stringify(id)})`);
  if (typeof content !== "string") throw invalidRecord(`${where} (${id}) needs string content`);
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
    throw invalidRecord(`${where} (${id}) needs a metadata object`);
  }
  return { id, content, metadata };
}

function createPort(
  settings: Settings,
  opened: OpenedIndex | undefined,
  lock: WriteLock | undefined,
  hooks: CommitHooks,
  watch: ManifestWatch | undefined,
): LocalSearchPort {
  const { directory, mode, embeddings, denseWeight, denseFloor, minScore, answerability } = settings;
  let manifest = opened?.manifest;
  let base = opened?.snapshot ?? emptySnapshot();
  /** Whose vectors the state holds (a writer: the given embedder, also for an empty index). */
  const vectorEmbedder: EmbedderIdentity | null =
    mode === "write" ? (embeddings === undefined ? null : settings.embedder) : base.vectors === undefined ? null : manifest?.embedder ?? null;
  const dimension = mode === "write" ? (vectorEmbedder?.dimension ?? 0) : 0;
  let pending: PendingChanges | undefined;
  /** Whether the state differs from the last commit (a rebuilt lexicon does). */
  let dirty = opened?.analyzerStale === true;
  /**
   * `closing`: `close` was called; new calls are refused, but queued writes and searches
   * already running finish. `closed`: they have, and the files and lock are released.
   */
  let state: "open" | "closing" | "closed" = "open";
  let closing: Promise<void> | undefined;
  /** Searches that have started and not yet settled (`close` waits for them). */
  const searches = new Set<Promise<unknown>>();
  /**
   * Data files this writer may remove once no manifest refers to them: the files of the
   * generation it opened and of the commits it made. Any other unreferenced file is
   * removed only when older than the lock's stale time (it may be another writer's).
   */
  const removable = new Set<string>(opened === undefined ? [] : Object.values(opened.manifest.files).map((entry) => entry.name));
  /** Set when a commit found that another writer committed meanwhile: nothing more is written. */
  let overtaken: Error | undefined;
  let slotOfId: Map<string, number> | undefined;
  let slotsOfDocument: Map<string, number[]> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  /** A reader's snapshots in use by searches (a superseded one closes when the last lets go). */
  const leases = new SnapshotLeases();
  /** A reader: why the newest commit could not be loaded (it serves the one it has), if it could not. */
  let refreshError: RefreshError | undefined;

  /** A reader: switches to a newer committed generation, if the (throttled) check finds one. */
  // A commit it cannot load leaves the reader on the one it has (reader-refresh.ts).
  function refresh(): void {
    const signature = watch?.changed();
    if (signature === undefined) return;
    const outcome = attemptRefresh(
      () => {
        const onDisk = readManifest(directory);
        if (onDisk !== undefined && !sameCommit(onDisk, manifest)) {
          const next = openCommitted(settings);
          if (next === undefined) return false;
          leases.retire(base);
          ({ manifest, snapshot: base } = next);
        }
        return true;
      },
      { loaded: manifest !== undefined, previous: refreshError, report: settings.onRefreshError },
    );
    refreshError = outcome.error;
    if (outcome.accept) watch?.accept(signature);
  }

  /** The state searches see: the base with pending changes folded in. */
  function current(): IndexSnapshot {
    if (pending !== undefined && !pending.isEmpty) {
      base = mergeSnapshot(base, pending, dimension);
      pending = undefined;
      slotOfId = undefined;
      slotsOfDocument = undefined;
    }
    return base;
  }

  function changes(): PendingChanges {
    pending ??= new PendingChanges(base.count);
    return pending;
  }

  function idSlots(): Map<string, number> {
    if (slotOfId === undefined) {
      slotOfId = new Map();
      base.ids.forEach((id, slot) => slotOfId?.set(id, slot));
    }
    return slotOfId;
  }

  function documentSlots(): Map<string, number[]> {
    if (slotsOfDocument === undefined) {
      const map = new Map<string, number[]>();
      base.docIds.forEach((docId, slot) => {
        if (docId === null) return;
        const slots = map.get(docId);
        if (slots === undefined) map.set(docId, [slot]);
        else slots.push(slot);
      });
      slotsOfDocument = map;
    }
    return slotsOfDocument;
  }

  function closedError(): LookupKnowledgeError {
    return new LookupKnowledgeError({
      code: "index_closed" satisfies SearchPortErrorCode,
      message: state === "closing" ? `The local index at ${directory} is closing` : `The local index at ${directory} was closed`,
    });
  }

  /** For a new call: refused once `close` was called. */
  function ensureOpen(): void {
    if (state !== "open") throw closedError();
  }

  /** For work already accepted (queued or running): refused only once the port is closed. */
  function ensureNotClosed(): void {
    if (state === "closed") throw closedError();
  }

  /** `accepting`: a new call (refused while closing); otherwise queued work (allowed to finish while closing). */
  function ensureWritable(operation: string, accepting: boolean): void {
    if (accepting) ensureOpen();
    else ensureNotClosed();
    if (mode !== "write") {
      throw new ConfigurationError({
        key: "mode",
        value: mode,
        reason: `${operation} needs the index at ${directory} opened with mode "write"`,
      });
    }
    const lost = lock?.lost ?? overtaken;
    if (lost !== undefined) throw lostLockError(directory, lost);
  }

  /** Runs write operations one after another (an upsert awaits its embeddings). */
  function exclusive<T>(operation: () => Promise<T>): Promise<T> {
    const run = queue.then(operation, operation);
    queue = run.catch(() => undefined);
    return run;
  }

  async function upsert(records: KnowledgeRecord[], options?: { signal?: AbortSignal }): Promise<void> {
    ensureWritable("upsert", true);
    if (!Array.isArray(records)) throw new InvalidWriteError({ code: "invalid_argument", operation: "upsert", message: "upsert: expected an array of records" });
    // Everything is read from the records now: changing them later changes nothing here.
    const latest = new Map<string, { record: KnowledgeRecord; docId: string | null; text: string; metadataText: string }>();
    records.forEach((input, index) => {
      const record = checkRecord(input, index);
      latest.delete(record.id);
      latest.set(record.id, {
        record,
        docId: readDocId(record.metadata) ?? null,
        text: indexedText(record),
        metadataText: JSON.stringify(record.metadata),
      });
    });
    const batch = [...latest.values()];
    return exclusive(async () => {
      ensureWritable("upsert", false);
      const signal = options?.signal;
      throwIfAborted(signal);
      if (batch.length === 0) return;
      const texts = batch.map((entry) => entry.text);
      let vectors: number[][] | undefined;
      if (embeddings !== undefined && vectorEmbedder !== null) {
        vectors = await raceWithAbort(embeddings.embedDocuments(texts), signal);
        if (!Array.isArray(vectors) || vectors.length !== batch.length) {
          throw new EmbedderMismatchError({
            directory,
            indexEmbedder: vectorEmbedder,
            givenEmbedder: vectorEmbedder,
            reason: `embedDocuments returned ${Array.isArray(vectors) ? vectors.length : "no"} vectors for ${batch.length} texts`,
          });
        }
        const wrong = vectors.find((vector) => !Array.isArray(vector) || vector.length !== vectorEmbedder.dimension);
        if (wrong !== undefined) {
          throw new EmbedderMismatchError({
            directory,
            indexEmbedder: vectorEmbedder,
            givenEmbedder: vectorEmbedder,
            reason: `embedDocuments returned a vector of ${Array.isArray(wrong) ? wrong.length : "no"} dimensions, not ${vectorEmbedder.dimension}`,
          });
        }
      }
      throwIfAborted(signal);
      ensureWritable("upsert", false);
      const stride = strideFor(dimension);
      const prepared = batch.map(({ record, docId, text, metadataText }, index) => {
        const counted = changes().countTerms(lexicalTerms(text));
        let codes: Int8Array | undefined;
        let inverseNorm = 0;
        const vector = vectors?.[index];
        if (vector !== undefined) {
          codes = new Int8Array(stride);
          inverseNorm = quantiseVector(vector, codes);
        }
        return {
          id: record.id,
          docId,
          content: record.content,
          metadataText,
          terms: counted.terms,
          frequencies: counted.frequencies,
          length: counted.terms.length === 0 ? 0 : counted.frequencies.reduce((sum, value) => sum + value, 0),
          codes,
          inverseNorm,
        };
      });
      const pendingChanges = changes();
      const slots = idSlots();
      for (const record of prepared) {
        const slot = slots.get(record.id);
        if (slot !== undefined) pendingChanges.remove(slot);
        pendingChanges.added.delete(record.id);
        pendingChanges.added.set(record.id, record);
      }
      dirty = true;
    });
  }

  async function deleteDocuments(docIds: string[], options?: { signal?: AbortSignal }): Promise<number> {
    ensureWritable("deleteDocuments", true);
    if (!Array.isArray(docIds)) throw new InvalidWriteError({ code: "invalid_argument", operation: "deleteDocuments", message: "deleteDocuments: expected an array of document ids" });
    return exclusive(async () => {
      ensureWritable("deleteDocuments", false);
      throwIfAborted(options?.signal);
      const wanted = new Set(docIds.filter((docId): docId is string => typeof docId === "string"));
      if (wanted.size === 0) return 0;
      const pendingChanges = changes();
      const bySlot = documentSlots();
      let removed = 0;
      for (const docId of wanted) {
        for (const slot of bySlot.get(docId) ?? []) if (pendingChanges.remove(slot)) removed += 1;
      }
      for (const [id, record] of pendingChanges.added) {
        if (record.docId !== null && wanted.has(record.docId)) {
          pendingChanges.added.delete(id);
          removed += 1;
        }
      }
      if (removed > 0) dirty = true;
      return removed;
    });
  }

  /**
   * Throws `IndexLockedError` unless the manifest on disk is still the one this writer
   * last read or wrote: otherwise another writer committed meanwhile (this one lost the
   * lock, perhaps without noticing yet), and switching the manifest would drop its commit.
   */
  function assertManifestUnchanged(): void {
    let onDisk: IndexManifest | undefined;
    let cause: unknown;
    try {
      onDisk = readManifest(directory);
    } catch (error) {
      cause = error;
    }
    if (cause === undefined && sameCommit(onDisk, manifest)) return;
    const seen = manifest === undefined ? "no commit" : `generation ${manifest.generation}`;
    const found = cause !== undefined ? "an unreadable manifest" : onDisk === undefined ? "no manifest" : `generation ${onDisk.generation}`;
    overtaken = new Error(`another writer committed: the index now holds ${found}, this writer last saw ${seen}`, { cause });
    throw lostLockError(directory, overtaken);
  }

  async function commit(): Promise<void> {
    ensureWritable("commit", true);
    return exclusive(async () => {
      ensureWritable("commit", false);
      const snapshot = current();
      if (!dirty && manifest !== undefined) return;
      const generation = (manifest?.generation ?? 0) + 1;
      const commitId = newCommitId();
      /** Every file this commit creates; on failure exactly these are removed, nothing else. */
      const created: string[] = [];
      let written: Awaited<ReturnType<typeof writeGeneration>>;
      try {
        written = await writeGeneration(directory, generation, commitId, snapshot, vectorEmbedder, created);
        await hooks.afterDataFiles?.(generation);
        ensureWritable("commit", false);
        const temporary = manifestTemporaryName(commitId);
        writeNewFileSync(directory, temporary, manifestText(written.manifest), created);
        // From the checks to the rename nothing awaits: the lock is still this writer's and
        // nobody committed since it last read the manifest, or nothing is switched.
        lock?.assertHeld();
        assertManifestUnchanged();
        renameSync(join(directory, temporary), join(directory, manifestFileName));
      } catch (error) {
        // The manifest still names the files it named; drop what this commit wrote.
        removeFiles(directory, created);
        throw error;
      }
      syncDirectory(directory);
      manifest = written.manifest;
      dirty = false;
      for (const entry of Object.values(written.manifest.files)) removable.add(entry.name);
      hooks.afterManifest?.(written.manifest);
      let records: FileRecords;
      try {
        records = openRecordFiles(directory, written.manifest, written.contentOffsets, written.metadataOffsets);
      } catch (error) {
        if (!(error instanceof MissingDataFileError)) throw error;
        throw new CorruptIndexError({ directory, reason: `${error.message}, just committed, is missing` });
      }
      const fileSlots = new Int32Array(snapshot.count);
      for (let slot = 0; slot < snapshot.count; slot += 1) fileSlots[slot] = slot;
      const previous = snapshot.records.file;
      base = { ...snapshot, records: { file: records, fileSlots, memory: [] } };
      previous?.close();
      removeUnreferencedFiles(directory, manifest, removable, staleMs);
    });
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
    if (mode === "write") return searchOn(undefined, parsed, signal);
    refresh();
    const release = leases.acquire(base);
    try {
      return await searchOn(base, parsed, signal);
    } finally {
      release();
    }
  }

  /** One search, on `pinned` (a reader's generation as the search started) or on the writer's current state. */
  async function searchOn(
    pinned: IndexSnapshot | undefined,
    { filter, scopeFilter, topK, query }: ReturnType<typeof readSearchRequest>,
    signal: AbortSignal | undefined,
  ): Promise<SearchHit[]> {
    const analysed = lexicalTerms(query);
    let vector: number[] | undefined;
    const denseReady = mode === "write" ? dimension > 0 : pinned?.vectors !== undefined;
    if (embeddings !== undefined && denseWeight > 0 && denseReady && topK > 0) {
      vector = await raceWithAbort(embeddings.embedQuery(query), signal);
      if (!Array.isArray(vector) || vector.length !== settings.embedder?.dimension) {
        throw new EmbedderMismatchError({
          directory,
          indexEmbedder: settings.embedder,
          givenEmbedder: settings.embedder,
          reason: `embedQuery returned a vector of ${Array.isArray(vector) ? vector.length : "no"} dimensions`,
        });
      }
    }
    throwIfAborted(signal);
    ensureNotClosed();
    // From here on everything is synchronous: no commit can swap the files underneath.
    const snapshot = pinned ?? current();
    const terms = withUnseenCjkPieces(analysed, snapshot.lexical.terms);
    const accepts =
      filter === undefined ? undefined : (slot: number) => matchesFilter(sharedMetadata(snapshot.records, slot, directory), filter);
    // Only a steering filter is judged against its scope: without `scopeFilter` the filter
    // is the caller's scope, and records outside it must not lower the score (R12).
    const inScope =
      filter === undefined || scopeFilter === undefined
        ? undefined
        : Object.keys(scopeFilter).length === 0
          ? () => true
          : (slot: number) => matchesFilter(sharedMetadata(snapshot.records, slot, directory), scopeFilter);
    const { slots, signals, filterShare } = searchSnapshot(snapshot, { terms, vector, denseWeight, topK, accepts, inScope }, denseFloor);
    // The model judges the best hit; the others keep their fused score's ratio to it. Under a
    // steering filter that left better matches of the caller's scope out, the judgement is
    // scaled by the share of the scope's best fused score the filtered list reaches, so a
    // filter that misses the evidence reads as low quality (R9) and the unfiltered retry runs.
    const modelled = answerability !== undefined && signals !== undefined ? scoreAnswerability(answerability, signals) : undefined;
    const judged = modelled === undefined ? undefined : modelled * (filterShare ?? 1);
    const best = slots[0]?.score ?? 1;
    const hits: SearchHit[] = [];
    for (const { slot, score: fused } of slots) {
      const score = judged === undefined ? fused : judged * (fused / best);
      if (score < minScore) break;
      hits.push({
        id: snapshot.ids[slot] as string,
        content: recordContent(snapshot.records, slot),
        metadata: recordMetadata(snapshot.records, slot, directory),
        score,
      });
    }
    const first = hits[0];
    if (first !== undefined && judged !== undefined && signals !== undefined && answerability !== undefined) {
      // A steered search also shows how much of its scope's best match the filter kept (the score's factor).
      const shown = filterShare === undefined ? signals : { ...signals, filterShare };
      first.answerability = { score: judged, model: answerabilityModelName(answerability), signals: roundedSignals(shown) };
    }
    return hits;
  }

  function stats(): LocalIndexStats {
    const removed = pending?.removed;
    const docIds: Array<string | null> = [];
    base.docIds.forEach((docId, slot) => {
      if (removed?.[slot] !== 1) docIds.push(docId);
    });
    for (const record of pending?.added.values() ?? []) docIds.push(record.docId);
    const embedder = vectorEmbedder ?? (mode === "read" ? (manifest?.embedder ?? null) : null);
    return {
      documents: countDocuments(docIds),
      chunks: docIds.length,
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
      state = "closing";
      await Promise.allSettled([queue, ...searches]);
      state = "closed";
      pending = undefined;
      base.records.file?.close();
      base = emptySnapshot();
      await lock?.release();
    })();
    return closing;
  }

  return { search, upsert, deleteDocuments, commit, stats, close };
}

function roundedSignals(signals: Readonly<Record<string, number>>): Record<string, number> {
  const rounded: Record<string, number> = {};
  for (const [name, value] of Object.entries(signals)) rounded[name] = Math.round(value * 10000) / 10000;
  return rounded;
}
