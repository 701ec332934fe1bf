import { ConfigurationError } from "@lookup-knowledge/core";
import { analyzerVersion, lexicalTerms } from "@lookup-knowledge/text";
import { indexedText } from "../../internal/indexed-text.js";
import { AnalyzerMismatchError } from "../errors/analyzer-mismatch-error.js";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { EmbedderMismatchError } from "../errors/embedder-mismatch-error.js";
import { manifestFileName, recordedAnalyzerVersion, sameCommit } from "../format/index-manifest.js";
import type { IndexManifest } from "../format/index-manifest.js";
import { emptySnapshot, recordContent, sharedMetadata } from "../snapshot/index-snapshot.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { loadGeneration } from "./load-generation.js";
import { loadLazyGeneration } from "./load-lazy-generation.js";
import { materializeSnapshot } from "../snapshot/materialize-snapshot.js";
import type { EmbedderIdentity } from "../port/local-search-port.js";
import { MissingDataFileError } from "../errors/missing-data-file-error.js";
import { readManifest } from "../format/read-manifest.js";
import type { LocalPortSettings } from "../port/read-local-port-settings.js";
import { rebuildLexicon } from "../lexical/rebuild-lexicon.js";

/** A committed generation as read; `analyzerStale`: a writer's, whose lexicon was rebuilt with this analyser. */
export interface OpenedIndex {
  manifest: IndexManifest;
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
 * Reads the committed generation, retrying when a writer removed its files meanwhile. An
 * index of another analyser version is refused to a reader (`AnalyzerMismatchError`); a
 * writer re-indexes all its records with this one.
 */
export function openCommittedIndex(settings: LocalPortSettings): OpenedIndex | undefined {
  const { directory, mode, embedder, embeddings, denseWeight, cjkDenseWeight, postingsCacheBytes } = settings;
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
          return { manifest, snapshot: emptySnapshot(), vectors: false, startedEmpty: true };
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
    const vectors = loadVectors && manifest.vectors !== null && manifest.files.vectors !== undefined;
    try {
      // A generation with block checksums (format 4) is read as searches touch it by a
      // reader; a writer holds everything in memory. Earlier formats are read whole.
      const snapshot =
        manifest.files.blocks === undefined
          ? loadGeneration(directory, manifest, loadVectors)
          : mode === "read"
            ? loadLazyGeneration(directory, manifest, loadVectors, { postingsCacheBytes })
            : materialized(loadLazyGeneration(directory, manifest, loadVectors));
      if (!analyzerStale) return { manifest, snapshot, vectors };
      const textOf = (slot: number): string =>
        indexedText({
          id: "",
          content: recordContent(snapshot.records, slot),
          metadata: sharedMetadata(snapshot.records, slot, directory),
        });
      return { manifest, snapshot: rebuildLexicon(snapshot, textOf, lexicalTerms), vectors, analyzerStale };
    } catch (error) {
      if (!(error instanceof MissingDataFileError)) throw error;
      const now = readManifest(directory);
      if (attempt < 5 && now !== undefined && !sameCommit(now, manifest)) continue;
      throw new CorruptIndexError({ directory, reason: `${error.message}, listed in ${manifestFileName}, is missing` });
    }
  }
}

/** `materializeSnapshot`, closing the lazy snapshot's files when it fails. */
function materialized(snapshot: IndexSnapshot): IndexSnapshot {
  try {
    return materializeSnapshot(snapshot);
  } catch (error) {
    snapshot.records.file?.close();
    throw error;
  }
}

/** Whether a writer starts an index of another embedder empty (`onEmbedderChange`), asking the caller's function when it gave one. */
function startsEmpty(settings: LocalPortSettings, manifest: IndexManifest): boolean {
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
