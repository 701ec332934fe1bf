import type { MetadataFilter, SearchHit } from "@lookup-knowledge/core";
import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { lexicalTerms } from "@lookup-knowledge/text";
import { raceWithAbort, throwIfAborted } from "../../internal/abort.js";
import { readRecordIds } from "../../internal/read-record-ids.js";
import { readSearchRequest } from "../../internal/read-search-request.js";
import type { FetchedRecord } from "../../knowledge-record-reader.js";
import type { SearchPortErrorCode } from "../../search-port-error-code.js";
import type { SearchRequest } from "../../search-request.js";
import { validateMetadataFilter } from "../../validate-metadata-filter.js";
import { queryDenseWeight } from "../dense/query-dense-weight.js";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { sameCommit } from "../format/index-manifest.js";
import { isMissing } from "../format/is-missing.js";
import { readManifest } from "../format/read-manifest.js";
import { termShare } from "../lexical/term-share.js";
import type { EmbedderIdentity, LocalIndexStats, MetadataKeysSummary } from "../port/local-search-port.js";
import type { LocalPortLifecycle } from "../port/local-port-lifecycle.js";
import type { LocalPortSettings } from "../port/read-local-port-settings.js";
import { snapshotHasVectors } from "../snapshot/index-snapshot.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import type { LocalIndexState } from "../snapshot/local-index-state.js";
import { scopedSnapshot } from "../snapshot/scoped-snapshot.js";
import { SnapshotLeases } from "../snapshot/snapshot-leases.js";
import { checkQueryVector } from "./check-query-vector.js";
import { fetchLocalRecords } from "./fetch-local-records.js";
import { localIndexStats } from "./local-index-stats.js";
import { localMetadataKeys } from "./local-metadata-keys.js";
import type { ManifestWatch } from "./manifest-watch.js";
import { openCommittedIndex } from "./open-committed-index.js";
import { attemptRefresh } from "./reader-refresh.js";
import type { RefreshError } from "./reader-refresh.js";
import { searchLocalIndex } from "./search-local-index.js";

/** What the reader is given by the port that owns it. */
export interface LocalIndexReaderContext {
  settings: LocalPortSettings;
  /** What the port holds of its index, shared with its writer. */
  state: LocalIndexState;
  lifecycle: LocalPortLifecycle;
  /** A reader's check for newer commits; undefined for a writer (it makes the commits). */
  watch: ManifestWatch | undefined;
  /** Whose vectors the state holds (null: none). */
  vectorEmbedder: EmbedderIdentity | null;
}

/**
 * The read side of the local index: searches, record fetches, term shares, scope sizes and
 * stats. In mode `"read"` it first picks up a newer commit (`refresh`, throttled by the
 * manifest watch) and pins the generation a search or fetch runs on with a lease, so a
 * commit loaded meanwhile closes that generation's files only once the last search using it
 * ends. In mode `"write"` it searches the writer's current state, pending changes folded in.
 */
export class LocalIndexReader {
  /** A reader's snapshots in use by searches (a superseded one closes when the last lets go). */
  private readonly leases = new SnapshotLeases();
  /** Searches and fetches that have started and not yet settled (`close` waits for them). */
  private readonly running = new Set<Promise<unknown>>();
  /** A reader: why the newest commit could not be loaded (it serves the one it has), if it could not. */
  private refreshError: RefreshError | undefined;

  constructor(private readonly context: LocalIndexReaderContext) {}

  /** `KnowledgeSearchPort.search` of the local port. */
  search(request: SearchRequest): Promise<SearchHit[]> {
    return this.track(this.runSearch(request));
  }

  fetchRecords(ids: readonly string[], options: { signal?: AbortSignal } = {}): Promise<Array<FetchedRecord | undefined>> {
    return this.track(this.runFetch(ids, options));
  }

  termShare(text: string, scope?: MetadataFilter): number {
    this.context.lifecycle.ensureOpen();
    if (typeof text !== "string")
      throw new LookupKnowledgeError<SearchPortErrorCode>({ code: "invalid_argument", message: "termShare: expected a string" });
    return termShare(this.committedScope(scope), text);
  }

  scopeSize(scope?: MetadataFilter): number {
    this.context.lifecycle.ensureOpen();
    return this.committedScope(scope).count;
  }

  stats(): LocalIndexStats {
    const { state, settings, vectorEmbedder } = this.context;
    return localIndexStats(state, settings.mode, vectorEmbedder, this.refreshError);
  }

  metadataKeys(options?: { topValues?: number }): MetadataKeysSummary {
    const { state, settings, lifecycle } = this.context;
    lifecycle.ensureOpen();
    if (settings.mode === "write") return localMetadataKeys(state, settings.directory, options?.topValues);
    this.refresh();
    try {
      return localMetadataKeys(state, settings.directory, options?.topValues);
    } catch (error) {
      // A newer commit removed the counts file of the one this reader serves: count from that commit.
      if (!(CorruptIndexError.isInstance(error) && isMissing(error.cause)) || !this.loadNewerCommit()) throw error;
      return localMetadataKeys(state, settings.directory, options?.topValues);
    }
  }

  /** The searches and fetches running now (`close` waits for them to settle). */
  inFlight(): Array<Promise<unknown>> {
    return [...this.running];
  }

  private track<T>(running: Promise<T>): Promise<T> {
    this.running.add(running);
    const settle = () => this.running.delete(running);
    running.then(settle, settle);
    return running;
  }

  private async runSearch(request: SearchRequest): Promise<SearchHit[]> {
    const { lifecycle, settings, state } = this.context;
    lifecycle.ensureOpen();
    const signal = request.signal;
    throwIfAborted(signal);
    const parsed = readSearchRequest(request);
    if (settings.mode === "write") return this.searchOn(undefined, parsed, signal);
    this.refresh();
    const pinned = state.base;
    const release = this.leases.acquire(pinned);
    try {
      return await this.searchOn(pinned, parsed, signal);
    } finally {
      release();
    }
  }

  /**
   * One search, on `pinned` (a reader's generation as the search started) or, once the query
   * is embedded, on the writer's current state: the query analysed, embedded when dense
   * search takes part, then ranked (`searchLocalIndex`).
   */
  private async searchOn(
    pinned: IndexSnapshot | undefined,
    parsed: ReturnType<typeof readSearchRequest>,
    signal: AbortSignal | undefined,
  ): Promise<SearchHit[]> {
    const { settings, state, lifecycle } = this.context;
    const { embeddings } = settings;
    const analysed = lexicalTerms(parsed.query);
    const denseWeight = queryDenseWeight(parsed.query, analysed, settings);
    let vector: number[] | undefined;
    const denseReady = pinned === undefined ? state.dimension > 0 : snapshotHasVectors(pinned);
    if (embeddings !== undefined && denseWeight > 0 && denseReady && parsed.topK > 0) {
      vector = checkQueryVector(await raceWithAbort(embeddings.embedQuery(parsed.query), signal), settings);
    }
    throwIfAborted(signal);
    lifecycle.ensureNotClosed();
    // From here on everything is synchronous: no commit can swap the files underneath.
    return searchLocalIndex(settings, pinned ?? state.current(), { ...parsed, analysed, denseWeight, vector });
  }

  private async runFetch(ids: readonly string[], options: { signal?: AbortSignal }): Promise<Array<FetchedRecord | undefined>> {
    const { lifecycle, settings, state } = this.context;
    lifecycle.ensureOpen();
    throwIfAborted(options.signal);
    const checked = readRecordIds(ids);
    if (settings.mode === "write") return fetchLocalRecords(state.current(), checked, settings.directory);
    this.refresh();
    const pinned = state.base;
    const release = this.leases.acquire(pinned);
    try {
      return fetchLocalRecords(pinned, checked, settings.directory);
    } finally {
      release();
    }
  }

  /** The committed index as `scope` sees it (`scopedSnapshot`); a malformed scope is refused. */
  private committedScope(scope: MetadataFilter | undefined): IndexSnapshot {
    const { settings, state } = this.context;
    const checked = scope === undefined ? undefined : validateMetadataFilter(scope);
    if (settings.mode === "read") this.refresh();
    return scopedSnapshot(state.base, checked, settings.directory);
  }

  /**
   * A reader: switches to a newer committed generation, if the (throttled) check finds one.
   * A commit it cannot load leaves the reader on the one it has (reader-refresh.ts).
   */
  private refresh(): void {
    const { watch, state, settings } = this.context;
    const signature = watch?.changed();
    if (signature === undefined) return;
    const outcome = attemptRefresh(() => this.loadNewerCommit(), {
      loaded: state.manifest !== undefined,
      previous: this.refreshError,
      report: settings.onRefreshError,
    });
    this.refreshError = outcome.error;
    if (outcome.accept) watch?.accept(signature);
  }

  /** Loads the commit on disk unless it is the one held, retiring the old generation; false when the manifest vanished meanwhile. */
  private loadNewerCommit(): boolean {
    const { settings, state } = this.context;
    const onDisk = readManifest(settings.directory);
    if (onDisk !== undefined && !sameCommit(onDisk, state.manifest)) {
      const next = openCommittedIndex(settings);
      if (next === undefined) return false;
      this.leases.retire(state.base);
      state.adoptOpened(next);
    }
    return true;
  }
}
