import { analyzerVersion } from "@lookup-knowledge/text";
import { checksumBlockBytes } from "../format/block-checksums.js";
import { encodeDeletes } from "../format/deletes-file.js";
import { indexFormat, newCommitId } from "../format/index-manifest.js";
import { encodeKeyCounts } from "../format/key-counts-file.js";
import type { SegmentEntry, SegmentedManifest } from "../format/segmented-manifest.js";
import { writeWholeFile } from "../format/hashed-file-writer.js";
import { generationFileName } from "../format/index-manifest.js";
import { strideFor } from "../dense/dense-matrix.js";
import { bm25B, bm25K1 } from "../lexical/bm25.js";
import { boundBlockPostings } from "../lexical/term-score-bounds.js";
import type { EmbedderIdentity } from "../port/local-search-port.js";
import { chooseMerges } from "../segments/choose-merges.js";
import type { MergePolicy } from "../segments/choose-merges.js";
import { composeSnapshot } from "../segments/compose-snapshot.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import type { StateSegment } from "../snapshot/local-index-state.js";
import type { MetadataKeyCounts } from "../snapshot/metadata-key-counts.js";
import { writeMergedSegment } from "../merge/write-merged-segment.js";
import { writeSegment } from "./write-segment.js";

/** What a commit wrote, before the manifest is switched to it. */
export interface PreparedCommit {
  manifest: SegmentedManifest;
  /** The segments the manifest lists, in its order: kept ones as they were, those this commit wrote with `entry` set and `committed` false. */
  segments: StateSegment[];
  /** Per listed segment, whether this commit wrote it (its `snapshot` is then the one it was written from, to be opened from its files). */
  fresh: boolean[];
  /** Segments the manifest no longer lists (merged into another, or left without a live record): their files close once it is switched. */
  dropped: StateSegment[];
}

/** What `prepareCommit` works on. */
export interface CommitInput {
  directory: string;
  generation: number;
  commitId: string;
  /** The writer's segments, pending changes folded in; `composed`: them as one index. */
  segments: readonly StateSegment[];
  composed: IndexSnapshot;
  /** Distinct documents of the live records (`LocalIndexState.documents`). */
  documents: number;
  /** Write every live record into one segment (format upgrade, rebuilt lexicon, `optimize`). */
  mergeAll: boolean;
  policy: MergePolicy;
  embedder: EmbedderIdentity | null;
  /** Whether the last commit recorded the embedder (an index keeps it once it held vectors). */
  keepsEmbedder: boolean;
  keyCounts: MetadataKeyCounts;
  /** Every file created is added here, also on failure. */
  created: string[];
  /** Told the segments the chosen merges will fold away, before any is written. */
  beforeMerges?: (leaving: readonly StateSegment[]) => void;
}

/**
 * Writes a commit's files: each segment held in memory as a new segment, runs of segments
 * merged as `policy` chooses (`chooseMerges`; all of them with `mergeAll`), each merge streamed
 * from the segments' files (`writeMergedSegment`), the deleted slots
 * of every kept segment (`deletes`) and the metadata key counts (`facets`), and returns the
 * manifest that lists them. Segments already written are never written again unless merged.
 */
export async function prepareCommit(input: CommitInput): Promise<PreparedCommit> {
  const { directory, generation, created, composed } = input;
  const dropped: StateSegment[] = [];
  const live = input.segments.filter((segment) => {
    const empty = liveRecords(segment) === 0;
    if (empty) dropped.push(segment);
    return !empty;
  });
  const runs: Array<[number, number]> = input.mergeAll
    ? live.length > 1 || live.some((segment) => segment.entry === undefined || segment.deleted !== undefined)
      ? [[0, live.length]]
      : []
    : chooseMerges(
        live.map((segment) => ({ records: segment.snapshot.count, deleted: countMarks(segment.deleted) })),
        input.policy,
      );
  if (runs.length > 0) input.beforeMerges?.(runs.flatMap(([from, to]) => live.slice(from, to)));
  const segments: StateSegment[] = [];
  const fresh: boolean[] = [];
  let index = 0;
  for (const [from, to] of [...runs, [live.length, live.length] as [number, number]]) {
    for (; index < from; index += 1) {
      const segment = live[index] as StateSegment;
      fresh.push(segment.entry === undefined);
      segments.push(await writtenOnce(directory, generation, segment, created));
    }
    if (from === to) break;
    const run = live.slice(from, to);
    // Streamed: the merged lexicon, keys and vectors are never held in memory (merge/).
    const written = await writeMergedSegment(
      directory,
      generation,
      newCommitId(),
      run,
      input.embedder === null ? undefined : strideFor(input.embedder.dimension),
      created,
    );
    // A view of the merged segments until the merged one is opened from its files.
    segments.push(newSegment(written.entry, composeSnapshot(run)));
    fresh.push(true);
    dropped.push(...run);
    index = to;
  }
  const deletes = segments.some((segment) => segment.deleted !== undefined)
    ? await writeWholeFile(
        directory,
        generationFileName(generation, input.commitId, "deletes"),
        [encodeDeletes(segments.map((segment) => segment.deleted))],
        created,
      )
    : undefined;
  const facets = await writeWholeFile(
    directory,
    generationFileName(generation, input.commitId, "facets"),
    [encodeKeyCounts(input.keyCounts)],
    created,
  );
  // An index keeps its embedder while it holds vectors, and once it held them (deleting every record keeps it).
  const withVectors =
    input.embedder !== null && (input.keepsEmbedder || segments.some((segment) => segment.entry?.files.vectors !== undefined));
  const entries = segments.map((segment): SegmentEntry => ({ ...(segment.entry as SegmentEntry), deleted: countMarks(segment.deleted) }));
  const manifest: SegmentedManifest = {
    ...sharedManifestFields(generation, input.commitId, withVectors ? input.embedder : null),
    chunks: composed.count,
    documents: input.documents,
    totalLength: composed.lexicon.totalLength,
    segments: entries,
    files: { facets: facets.entry, ...(deletes === undefined ? {} : { deletes: deletes.entry }) },
  };
  return { manifest, segments: segments.map((segment, at) => ({ ...segment, entry: entries[at] })), fresh, dropped };
}

/** A segment of the commit: one already written as it is, one held in memory written now. */
async function writtenOnce(directory: string, generation: number, segment: StateSegment, created: string[]): Promise<StateSegment> {
  if (segment.entry !== undefined) return segment;
  const written = await writeSegment(directory, generation, newCommitId(), segment.snapshot, created);
  return newSegment(written.entry, segment.snapshot);
}

function newSegment(entry: SegmentEntry, snapshot: IndexSnapshot): StateSegment {
  return { entry, snapshot, deleted: undefined, committed: false, committedDeleted: undefined };
}

function countMarks(marks: Uint8Array | undefined): number {
  let total = 0;
  if (marks !== undefined) for (const mark of marks) total += mark;
  return total;
}

function liveRecords(segment: StateSegment): number {
  return segment.snapshot.count - countMarks(segment.deleted);
}

/** The fields of a format-7 manifest its segments share: what this version writes, and whose vectors they hold (null: none). */
export function sharedManifestFields(
  generation: number,
  commitId: string,
  embedder: EmbedderIdentity | null,
): Omit<SegmentedManifest, "chunks" | "documents" | "totalLength" | "segments" | "files"> {
  return {
    format: indexFormat,
    formatVersion: 7,
    generation,
    id: commitId,
    committedAt: new Date().toISOString(),
    analyzer: { version: analyzerVersion },
    blockBytes: checksumBlockBytes,
    blockHash: "xxh64",
    boundBlockPostings,
    bm25: { k1: bm25K1, b: bm25B },
    embedder,
    vectors: embedder === null ? null : { encoding: "int8", stride: strideFor(embedder.dimension) },
  };
}
