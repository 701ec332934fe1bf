import { join } from "node:path";
import { renameSync } from "node:fs";
import { readDocId } from "@lookup-knowledge/core";
import { ConfigurationError } from "@lookup-knowledge/core";
import { lexicalTerms } from "@lookup-knowledge/text";
import { raceWithAbort, throwIfAborted } from "../../internal/abort.js";
import { requireArray } from "../../internal/require-array.js";
import { indexedText } from "../../internal/indexed-text.js";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import { checkRecord } from "./check-record.js";
import type { CommitHooks } from "./commit-hooks.js";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { quantiseVector, strideFor } from "../dense/dense-matrix.js";
import { checkEmbeddedVectors } from "./check-embedded-vectors.js";
import type { FileRecords } from "../format/file-records.js";
import { manifestFileEntries, manifestFileName, manifestTemporaryName, newCommitId, sameCommit } from "../format/index-manifest.js";
import type { IndexManifest } from "../format/index-manifest.js";
import type { LocalIndexState } from "./local-index-state.js";
import type { EmbedderIdentity, LocalSearchPort } from "../port/local-search-port.js";
import { manifestText } from "../format/manifest-text.js";
import { MissingDataFileError } from "../errors/missing-data-file-error.js";
import { openRecordFiles } from "../format/open-record-files.js";
import { readManifest } from "../format/read-manifest.js";
import type { LocalPortSettings } from "../port/read-local-port-settings.js";
import { removeFiles, removeUnreferencedFiles } from "./remove-unreferenced-files.js";
import { syncDirectory } from "../format/sync-directory.js";
import { createVectorsAhead } from "./vectors-ahead.js";
import type { TextToEmbed } from "./vectors-ahead.js";
import { writeGeneration } from "./write-generation.js";
import { writeNewFileSync } from "../format/write-new-file-sync.js";
import { lostLockError, staleMs } from "./write-lock.js";
import type { WriteLock } from "./write-lock.js";

/** What the writer is given by the port that owns it. */
export interface LocalIndexWriterContext {
  settings: LocalPortSettings;
  state: LocalIndexState;
  /** The writer's lock (undefined for a reader, whose writes are all refused). */
  lock: WriteLock | undefined;
  hooks: CommitHooks;
  /** Whose vectors the state holds (the given embedder, also for an empty index; null: none). */
  vectorEmbedder: EmbedderIdentity | null;
  /** The port's lifecycle: a new call is refused once `close` was called, accepted work once it is closed. */
  lifecycle: { ensureOpen(): void; ensureNotClosed(): void };
  /** Whether the state already differs from the last commit (a rebuilt lexicon does). */
  dirty: boolean;
  /** The data files of the generation the port opened: this writer may remove them once superseded. */
  openedFiles: Iterable<string>;
}

/** The writer of the local index: its operations and the promise of the work queued so far. */
export interface LocalIndexWriter extends Pick<LocalSearchPort, "upsert" | "deleteDocuments" | "commit" | "embedAhead"> {
  /** Settles when the writes queued so far have (`close` waits for it). */
  settled(): Promise<unknown>;
  /** Lets go of the vectors asked for ahead (`close`, once the queued writes settled). */
  discardAhead(): void;
}

/**
 * The write side of the local index: writes run one after another through a queue (an
 * upsert awaits its embeddings), are staged as pending changes, and `commit` writes a new
 * generation's files and then switches the manifest to them (the commit protocol: README,
 * "Folder format" and "Locking").
 */
export function createLocalIndexWriter(context: LocalIndexWriterContext): LocalIndexWriter {
  const { settings, state, lock, hooks, vectorEmbedder, lifecycle } = context;
  const { directory, mode, embeddings } = settings;
  let dirty = context.dirty;
  /**
   * Data files this writer may remove once no manifest refers to them: the files of the
   * generation it opened and of the commits it made. Any other unreferenced file is
   * removed only when older than the lock's stale time (it may be another writer's).
   */
  const removable = new Set<string>(context.openedFiles);
  /** Set when a commit found that another writer committed meanwhile: nothing more is written. */
  let overtaken: Error | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  /** Vectors asked for by `embedAhead`, taken by the upserts of the same records. */
  const ahead = embeddings !== undefined && vectorEmbedder !== null && mode === "write" ? createVectorsAhead(embeddings) : undefined;

  /** `accepting`: a new call (refused while closing); otherwise queued work (allowed to finish while closing). */
  function ensureWritable(operation: string, accepting: boolean): void {
    if (accepting) lifecycle.ensureOpen();
    else lifecycle.ensureNotClosed();
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
    requireArray(records, "upsert");
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
      // The embedder is asked first (or was, by `embedAhead`): one that waits on a service (or
      // another thread) embeds while the lexical terms are worked out here.
      const embedding =
        ahead !== undefined && vectorEmbedder !== null
          ? ahead.vectorsFor(
              batch.map((entry): TextToEmbed => ({ id: entry.record.id, text: entry.text })),
              (answer, count) => checkEmbeddedVectors(answer, count, directory, vectorEmbedder),
              signal,
            )
          : undefined;
      // A rejection before it is awaited is not unhandled.
      embedding?.catch(() => undefined);
      const terms = texts.map((text) => lexicalTerms(text));
      if (embedding !== undefined && vectorEmbedder !== null) {
        vectors = await raceWithAbort(embedding, signal);
      }
      throwIfAborted(signal);
      ensureWritable("upsert", false);
      const stride = strideFor(state.dimension);
      const prepared = batch.map(({ record, docId, metadataText }, index) => {
        const counted = state.changes().countTerms(terms[index] as string[]);
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
      const pendingChanges = state.changes();
      const slots = state.idSlots();
      for (const record of prepared) {
        const slot = slots.get(record.id);
        if (slot !== undefined) pendingChanges.remove(slot);
        pendingChanges.added.delete(record.id);
        pendingChanges.added.set(record.id, record);
      }
      dirty = true;
    });
  }

  function embedAhead(records: readonly KnowledgeRecord[]): void {
    if (ahead === undefined || !Array.isArray(records)) return;
    try {
      ensureWritable("embedAhead", true);
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
    ahead.start(entries);
  }

  async function deleteDocuments(docIds: string[], options?: { signal?: AbortSignal }): Promise<number> {
    ensureWritable("deleteDocuments", true);
    requireArray(docIds, "deleteDocuments");
    return exclusive(async () => {
      ensureWritable("deleteDocuments", false);
      throwIfAborted(options?.signal);
      const wanted = new Set(docIds.filter((docId): docId is string => typeof docId === "string"));
      if (wanted.size === 0) return 0;
      const pendingChanges = state.changes();
      const bySlot = state.documentSlots();
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
    if (cause === undefined && sameCommit(onDisk, state.manifest)) return;
    const seen = state.manifest === undefined ? "no commit" : `generation ${state.manifest.generation}`;
    const found = cause !== undefined ? "an unreadable manifest" : onDisk === undefined ? "no manifest" : `generation ${onDisk.generation}`;
    overtaken = new Error(`another writer committed: the index now holds ${found}, this writer last saw ${seen}`, { cause });
    throw lostLockError(directory, overtaken);
  }

  async function commit(): Promise<void> {
    ensureWritable("commit", true);
    return exclusive(async () => {
      ensureWritable("commit", false);
      const snapshot = state.current();
      if (!dirty && state.manifest !== undefined) return;
      const generation = (state.manifest?.generation ?? 0) + 1;
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
      state.manifest = written.manifest;
      dirty = false;
      for (const entry of manifestFileEntries(written.manifest)) removable.add(entry.name);
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
      state.base = { ...snapshot, records: { file: records, fileSlots, memory: [] } };
      previous?.close();
      removeUnreferencedFiles(directory, state.manifest, removable, staleMs);
    });
  }

  return { upsert, embedAhead, deleteDocuments, commit, settled: () => queue, discardAhead: () => ahead?.clear() };
}
