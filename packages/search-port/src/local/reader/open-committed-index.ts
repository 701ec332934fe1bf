import { ConfigurationError } from "@lookup-knowledge/core";
import { analyzerVersion, lexicalTerms } from "@lookup-knowledge/text";
import { indexedText } from "../../internal/indexed-text.js";
import { AnalyzerMismatchError } from "../errors/analyzer-mismatch-error.js";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { EmbedderMismatchError } from "../errors/embedder-mismatch-error.js";
import { readDeletes } from "../format/deletes-file.js";
import { manifestFileName, recordedAnalyzerVersion, sameCommit } from "../format/index-manifest.js";
import { isSegmented, segmentManifest } from "../format/segmented-manifest.js";
import type { StoredManifest } from "../format/segmented-manifest.js";
import { composeSnapshot } from "../segments/compose-snapshot.js";
import type { OpenedSegment } from "../segments/segment-part.js";
import { emptySnapshot, recordContent, sharedMetadata } from "../snapshot/index-snapshot.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { loadGeneration } from "./load-generation.js";
import { loadLazyGeneration } from "./load-lazy-generation.js";
import type { EmbedderIdentity } from "../port/local-search-port.js";
import { MissingDataFileError } from "../errors/missing-data-file-error.js";
import { readManifest } from "../format/read-manifest.js";
import type { LocalPortSettings } from "../port/read-local-port-settings.js";
import { rebuildLexicon } from "../lexical/rebuild-lexicon.js";

/** A committed index as read; `analyzerStale`: a writer's, whose lexicon was rebuilt with this analyser. */
export interface OpenedIndex {
  manifest: StoredManifest;
  /** Its segments (one for an index of format 6 or older), with their deleted records. */
  segments: OpenedSegment[];
  /** The segments searched as one index (`composeSnapshot`). */
  snapshot: IndexSnapshot;
  /** Whether the snapshot searches vectors (they may be read on the first dense search). */
  vectors: boolean;
  analyzerStale?: boolean;
  /**
   * A writer opened an index of another embedder empty (`onEmbedderChange: "start-empty"`):
   * `manifest` is the committed one, `snapshot` holds nothing, and the next commit replaces it.
   */
  startedEmpty?: boolean;
}

function sameEmbedder(left: EmbedderIdentity | null, right: EmbedderIdentity | null): boolean {
  if (left === null || right === null) return left === right;
  return left.id === right.id && left.version === right.version && left.dimension === right.dimension;
}

/**
 * Reads the committed index, retrying when a writer removed its files meanwhile. An
 * index of another analyser version is refused to a reader (`AnalyzerMismatchError`); a
 * writer re-indexes all its records with this one.
 */
export function openCommittedIndex(settings: LocalPortSettings): OpenedIndex | undefined {
  const { directory, mode, embedder, embeddings, denseWeight, cjkDenseWeight } = settings;
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
        if (mode === "write" && startsEmpty(settings, manifest)) {
          return { manifest, segments: [], snapshot: emptySnapshot(), vectors: false, startedEmpty: true };
        }
        throw new EmbedderMismatchError({ directory, indexEmbedder: manifest.embedder, givenEmbedder: embedder });
      }
    }
    const indexAnalyzer = recordedAnalyzerVersion(manifest);
    const analyzerStale = indexAnalyzer !== analyzerVersion;
    if (analyzerStale && mode === "read") {
      throw new AnalyzerMismatchError({ directory, indexAnalyzer, libraryAnalyzer: analyzerVersion });
    }
    const loadVectors =
      embeddings !== undefined && manifest.embedder !== null && (mode === "write" || denseWeight > 0 || cjkDenseWeight > 0);
    try {
      const segments = openSegments(settings, manifest, loadVectors);
      const vectors = loadVectors && manifest.vectors !== null && listsVectors(manifest);
      // The composed lexicon keeps gathered postings within the same bound the reader was given.
      const snapshot = composeSnapshot(
        segments,
        settings.postingsCacheBytes === undefined ? {} : { postingsCacheBytes: settings.postingsCacheBytes },
      );
      if (!analyzerStale) return { manifest, segments, snapshot, vectors };
      const textOf = (slot: number): string =>
        indexedText({
          id: "",
          content: recordContent(snapshot.records, slot),
          metadata: sharedMetadata(snapshot.records, slot, directory),
        });
      const rebuilt = rebuildLexicon(snapshot, textOf, lexicalTerms);
      return { manifest, segments: [{ entry: undefined, snapshot: rebuilt }], snapshot: rebuilt, vectors, analyzerStale };
    } catch (error) {
      if (!(error instanceof MissingDataFileError)) throw error;
      const now = readManifest(directory);
      if (attempt < 5 && now !== undefined && !sameCommit(now, manifest)) continue;
      throw new CorruptIndexError({ directory, reason: `${error.message}, listed in ${manifestFileName}, is missing` });
    }
  }
}

/**
 * The segments of `manifest`, each opened without reading it (load-lazy-generation.ts), with
 * their deleted records; a generation of format 6 or older is one segment (read whole when
 * it predates block checksums, format 4). When one cannot be opened, those opened are closed.
 */
function openSegments(settings: LocalPortSettings, manifest: StoredManifest, loadVectors: boolean): OpenedSegment[] {
  const { directory, postingsCacheBytes } = settings;
  if (!isSegmented(manifest)) {
    const snapshot =
      manifest.files.blocks === undefined
        ? loadGeneration(directory, manifest, loadVectors)
        : loadLazyGeneration(directory, manifest, loadVectors, { postingsCacheBytes });
    return [{ entry: undefined, snapshot }];
  }
  const deleted = readDeletes(directory, manifest);
  const opened: OpenedSegment[] = [];
  try {
    manifest.segments.forEach((entry, index) => {
      const snapshot = loadLazyGeneration(directory, segmentManifest(manifest, index), loadVectors, { postingsCacheBytes });
      opened.push({ entry, snapshot, deleted: deleted[index] });
    });
  } catch (error) {
    for (const segment of opened) segment.snapshot.records.file?.close();
    throw error;
  }
  return opened;
}

/** Whether a writer starts an index of another embedder empty (`onEmbedderChange`), asking the caller's function when it gave one. */
function startsEmpty(settings: LocalPortSettings, manifest: StoredManifest): boolean {
  const policy = settings.onEmbedderChange;
  if (typeof policy !== "function") return policy === "start-empty";
  const decision = policy({ embedder: manifest.embedder, chunks: manifest.chunks, documents: manifest.documents });
  if (decision !== "refuse" && decision !== "start-empty") {
    throw new ConfigurationError({
      key: "onEmbedderChange",
      value: decision,
      reason: 'the function must return "refuse" or "start-empty"',
    });
  }
  return decision === "start-empty";
}

/** Whether a committed index has a vectors file (without reading it). */
function listsVectors(manifest: StoredManifest): boolean {
  if (!isSegmented(manifest)) return manifest.files.vectors !== undefined;
  return manifest.segments.some((segment) => segment.files.vectors !== undefined);
}
