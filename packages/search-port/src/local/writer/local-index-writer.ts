import { renameSync } from "node:fs";
import { join } from "node:path";
import { ConfigurationError } from "@lookup-knowledge/core";
import { raceWithAbort, throwIfAborted } from "../../internal/abort.js";
import { indexedText } from "../../internal/indexed-text.js";
import { requireArray } from "../../internal/require-array.js";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import { manifestFileName, manifestTemporaryName, newCommitId, sameCommit } from "../format/index-manifest.js";
import type { SegmentedManifest, StoredManifest } from "../format/segmented-manifest.js";
import { manifestText } from "../format/manifest-text.js";
import { readManifest } from "../format/read-manifest.js";
import { writeNewFileSync } from "../format/write-new-file-sync.js";
import type { LocalPortLifecycle } from "../port/local-port-lifecycle.js";
import type { EmbedderIdentity, LocalSearchPort } from "../port/local-search-port.js";
import type { LocalPortSettings } from "../port/read-local-port-settings.js";
import { countMetadataKeys } from "../snapshot/count-metadata-keys.js";
import { defaultMergePolicy } from "../segments/choose-merges.js";
import type { LocalIndexState, StateSegment } from "../snapshot/local-index-state.js";
import { checkEmbeddedVectors } from "./check-embedded-vectors.js";
import { checkRecord } from "./check-record.js";
import { committedKeyCountsOrNone } from "./committed-key-counts-or-none.js";
import type { CommitHooks } from "./commit-hooks.js";
import { defaultFlushRecords, flushMemorySegment } from "./flush-memory-segment.js";
import { FilesNotSyncedError } from "../errors/files-not-synced-error.js";
import { adoptCommit } from "./adopt-commit.js";
import { prepareCommit } from "./prepare-commit.js";
import type { PreparedCommit } from "./prepare-commit.js";
import { readUpsertBatch } from "./read-upsert-batch.js";
import { keepsEmbedder } from "./keeps-embedder.js";
import type { UpsertEntry } from "./read-upsert-batch.js";
import { removeDocuments } from "./remove-documents.js";
import { removeFiles } from "./remove-unreferenced-files.js";
import { stageUpserts } from "./stage-upserts.js";
import { syncNewFiles } from "./sync-new-files.js";
import type { EmbeddedRow } from "./embedded-row.js";
import { createVectorsAhead } from "./vectors-ahead.js";
import type { TextToEmbed, VectorsAhead } from "./vectors-ahead.js";
import { lostLockError } from "./write-lock.js";
import type { WriteLock } from "./write-lock.js";

/** What the writer is given by the port that owns it. */
export interface LocalIndexWriterContext {
  settings: LocalPortSettings;
  /** What the port holds of its index, shared with its reader. */
  state: LocalIndexState;
  /** The writer's lock (undefined for a reader, whose writes are all refused). */
  lock: WriteLock | undefined;
  hooks: CommitHooks;
  /** Whose vectors the state holds (the given embedder, also for an empty index; null: none). */
  vectorEmbedder: EmbedderIdentity | null;
  /** The port's lifecycle: a new call is refused once `close` was called, accepted work once it is closed. */
  lifecycle: LocalPortLifecycle;
  /** Whether the state already differs from the last commit (a rebuilt lexicon does). */
  dirty: boolean;
  /** The data files of the generation the port opened: this writer may remove them once superseded. */
  openedFiles: Iterable<string>;
}

/**
 * The write side of the local index: writes run one after another through a queue (an
 * upsert awaits its embeddings), are staged as pending changes, and `commit` writes a new
 * generation's files and then switches the manifest to them (the commit protocol: README,
 * "Folder format" and "Locking").
 */
export class LocalIndexWriter implements Pick<LocalSearchPort, "upsert" | "deleteDocuments" | "commit" | "optimize" | "embedAhead"> {
  private dirty: boolean;
  /**
   * Data files this writer may remove once no manifest refers to them: the files of the
   * generation it opened and of the commits it made. Any other unreferenced file is
   * removed only when older than the lock's stale time (it may be another writer's).
   */
  private readonly removable: Set<string>;
  /** Set when a commit found that another writer committed meanwhile: nothing more is written. */
  private overtaken: Error | undefined;
  /** Set when a commit could not sync its files (`FilesNotSyncedError`): nothing more is written. */
  private failed: Error | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Vectors asked for by `embedAhead`, taken by the upserts of the same records. */
  private readonly ahead: VectorsAhead | undefined;

  constructor(private readonly context: LocalIndexWriterContext) {
    const { mode, embeddings } = context.settings;
    this.dirty = context.dirty;
    this.removable = new Set<string>(context.openedFiles);
    this.ahead =
      embeddings !== undefined && context.vectorEmbedder !== null && mode === "write" ? createVectorsAhead(embeddings) : undefined;
  }

  async upsert(records: KnowledgeRecord[], options?: { signal?: AbortSignal }): Promise<void> {
    this.ensureWritable("upsert", true);
    requireArray(records, "upsert");
    // Everything is read from the records now: changing them later changes nothing here.
    const batch = readUpsertBatch(records);
    return this.exclusive(() => this.stageUpsert(batch, options?.signal));
  }

  embedAhead(records: readonly KnowledgeRecord[]): void {
    if (this.ahead === undefined || !Array.isArray(records)) return;
    try {
      this.ensureWritable("embedAhead", true);
    } catch {
      return;
    }
    const entries: TextToEmbed[] = [];
    records.forEach((input, index) => {
      try {
        const record = checkRecord(input, index);
        entries.push({ id: record.id, text: indexedText(record) });
      } catch {
        // Not a record: its upsert says what is wrong with it.
      }
    });
    this.ahead.start(entries);
  }

  async deleteDocuments(docIds: string[], options?: { signal?: AbortSignal }): Promise<number> {
    this.ensureWritable("deleteDocuments", true);
    requireArray(docIds, "deleteDocuments");
    return this.exclusive(async () => {
      this.ensureWritable("deleteDocuments", false);
      throwIfAborted(options?.signal);
      const wanted = new Set(docIds.filter((docId): docId is string => typeof docId === "string"));
      if (wanted.size === 0) return 0;
      const removed = removeDocuments(this.context.state, wanted);
      if (removed > 0) this.dirty = true;
      return removed;
    });
  }

  async commit(): Promise<void> {
    this.ensureWritable("commit", true);
    return this.exclusive(() => this.commitNow());
  }

  async optimize(): Promise<void> {
    this.ensureWritable("optimize", true);
    return this.exclusive(() => this.commitNow(true));
  }

  /** Settles when the writes queued so far have (`close` waits for it). */
  settled(): Promise<unknown> {
    return this.queue;
  }

  /** Lets go of the vectors asked for ahead (`close`, once the queued writes settled). */
  discardAhead(): void {
    this.ahead?.clear();
  }

  /** `accepting`: a new call (refused while closing); otherwise queued work (allowed to finish while closing). */
  private ensureWritable(operation: string, accepting: boolean): void {
    const { settings, lifecycle, lock } = this.context;
    if (accepting) lifecycle.ensureOpen();
    else lifecycle.ensureNotClosed();
    if (settings.mode !== "write") {
      throw new ConfigurationError({
        key: "mode",
        value: settings.mode,
        reason: `${operation} needs the index at ${settings.directory} opened with mode "write"`,
      });
    }
    const lost = lock?.lost ?? this.overtaken;
    if (lost !== undefined) throw lostLockError(settings.directory, lost);
    if (this.failed !== undefined) throw this.failed;
  }

  /** Runs write operations one after another (an upsert awaits its embeddings). */
  private exclusive<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.queue.then(operation, operation);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** An upsert's turn in the queue: its vectors taken or asked for, its terms counted, its records staged. */
  private async stageUpsert(batch: UpsertEntry[], signal: AbortSignal | undefined): Promise<void> {
    this.ensureWritable("upsert", false);
    throwIfAborted(signal);
    if (batch.length === 0) return;
    // The embedder is asked first (or was, by `embedAhead`): one that waits on a service (or
    // another thread) embeds while the lexical terms are worked out here.
    const embedding = this.embed(batch, signal);
    // A rejection before it is awaited is not unhandled.
    embedding?.catch(() => undefined);
    const terms = batch.map((entry) => this.context.state.changes().analyse(entry.text));
    let vectors: EmbeddedRow[] | undefined;
    if (embedding !== undefined) vectors = await raceWithAbort(embedding, signal);
    throwIfAborted(signal);
    this.ensureWritable("upsert", false);
    stageUpserts(this.context.state, batch, terms, vectors);
    this.dirty = true;
    const { settings, state, hooks, vectorEmbedder } = this.context;
    const flushRecords = hooks.flushRecords ?? defaultFlushRecords;
    await flushMemorySegment(
      settings.directory,
      state,
      vectorEmbedder,
      { flushRecords, postingsCacheBytes: settings.postingsCacheBytes },
      this.removable,
    );
  }

  /** The batch's vectors (those asked for ahead, the rest asked for now), or undefined when the index holds none. */
  private embed(batch: readonly UpsertEntry[], signal: AbortSignal | undefined): Promise<EmbeddedRow[]> | undefined {
    const { vectorEmbedder, settings } = this.context;
    if (this.ahead === undefined || vectorEmbedder === null) return undefined;
    return this.ahead.vectorsFor(
      batch.map((entry): TextToEmbed => ({ id: entry.record.id, text: entry.text })),
      (answer, count) => checkEmbeddedVectors(answer, count, settings.directory, vectorEmbedder),
      signal,
    );
  }

  /** A commit's turn in the queue: the segments written and merged, the manifest switched to them, then adopted (`adoptCommit`). */
  private async commitNow(mergeAll = false): Promise<void> {
    this.ensureWritable("commit", false);
    const { settings, state, hooks, vectorEmbedder } = this.context;
    const composed = state.current();
    if (!this.dirty && state.manifest !== undefined && (!mergeAll || oneSegment(state.segments))) return;
    const generation = (state.manifest?.generation ?? 0) + 1;
    const commitId = newCommitId();
    /** Every file this commit creates; on failure exactly these are removed, nothing else. */
    const created: string[] = [];
    let prepared: PreparedCommit;
    try {
      const rewrite = mergeAll || state.rewriteAll;
      const committedCounts = rewrite ? undefined : committedKeyCountsOrNone(settings.directory, state);
      prepared = await prepareCommit({
        directory: settings.directory,
        generation,
        commitId,
        segments: state.segments,
        composed,
        documents: state.documents(),
        mergeAll: rewrite,
        policy: hooks.mergePolicy ?? defaultMergePolicy,
        embedder: vectorEmbedder,
        keepsEmbedder: keepsEmbedder(state.manifest?.embedder ?? null, vectorEmbedder),
        keyCounts: countMetadataKeys(committedCounts, state.segments, composed, settings.directory),
        created,
        beforeMerges: (leaving) => state.forgetLocationsLeaving(leaving),
      });
      await syncNewFiles(settings.directory, prepared.manifest, state.manifest);
      await hooks.afterDataFiles?.(generation);
      this.switchManifest(commitId, prepared.manifest, created);
    } catch (error) {
      // The manifest still names the files it named; drop what this commit wrote.
      removeFiles(settings.directory, created);
      if (error instanceof FilesNotSyncedError) this.failed = error;
      throw error;
    }
    this.dirty = false;
    try {
      adoptCommit(this.context, prepared, this.removable);
    } catch (error) {
      if (error instanceof FilesNotSyncedError) this.failed = error;
      throw error;
    }
  }

  /** Writes the new manifest beside the current one and renames it over it, unless the lock or the commit on disk says another writer may have written. */
  private switchManifest(commitId: string, manifest: SegmentedManifest, created: string[]): void {
    const { directory } = this.context.settings;
    this.ensureWritable("commit", false);
    const temporary = manifestTemporaryName(commitId);
    writeNewFileSync(directory, temporary, manifestText(manifest), created);
    // From the checks to the rename nothing awaits: the lock is still this writer's and
    // nobody committed since it last read the manifest, or nothing is switched.
    this.context.lock?.assertHeld();
    this.assertManifestUnchanged();
    renameSync(join(directory, temporary), join(directory, manifestFileName));
  }

  /**
   * Throws `IndexLockedError` unless the manifest on disk is still the one this writer
   * last read or wrote: otherwise another writer committed meanwhile (this one lost the
   * lock, perhaps without noticing yet), and switching the manifest would drop its commit.
   */
  private assertManifestUnchanged(): void {
    const { settings, state } = this.context;
    let onDisk: StoredManifest | undefined;
    let cause: unknown;
    try {
      onDisk = readManifest(settings.directory);
    } catch (error) {
      cause = error;
    }
    if (cause === undefined && sameCommit(onDisk, state.manifest)) return;
    const seen = state.manifest === undefined ? "no commit" : `generation ${state.manifest.generation}`;
    const found = cause !== undefined ? "an unreadable manifest" : onDisk === undefined ? "no manifest" : `generation ${onDisk.generation}`;
    this.overtaken = new Error(`another writer committed: the index now holds ${found}, this writer last saw ${seen}`, { cause });
    throw lostLockError(settings.directory, this.overtaken);
  }
}

/** Whether the index is one written segment without deleted records (nothing for `optimize` to merge). */
function oneSegment(segments: readonly StateSegment[]): boolean {
  const [only, ...others] = segments;
  return others.length === 0 && (only === undefined || (only.entry !== undefined && only.deleted === undefined));
}
