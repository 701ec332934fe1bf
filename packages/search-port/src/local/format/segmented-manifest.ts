import { schemaOnDemand } from "@lookup-knowledge/core/load-zod";
import type { z as Zod } from "zod";
import {
  plainArray,
  plainLiteral,
  plainMatch,
  plainOptional,
  plainStrictObject,
  plainString,
  plainWhole,
} from "../../internal/plain-shape.js";
import { indexFormat, indexManifestSchema, plainManifestParts } from "./index-manifest.js";
import type { IndexFileEntry, IndexManifest } from "./index-manifest.js";

function buildSegmentedManifestSchema(z: typeof Zod) {
  const index = indexManifestSchema();
  const count = z.number().int().nonnegative();
  const fileEntrySchema = index.shape.files.shape.keys;

  /** The data files of one segment: those of a format-6 generation but the metadata counts, which the index keeps whole. */
  const segmentFilesSchema = index.shape.files.omit({ facets: true }).extend({
    bounds: fileEntrySchema,
    blocks: fileEntrySchema,
  });

  const segmentEntrySchema = z.strictObject({
    /** Records the segment was written with, the deleted ones included (its slots). */
    chunks: count,
    /** Of them, those later commits deleted: listed in the index's `deletes` file. */
    deleted: count,
    terms: count,
    postings: count,
    /** Indexed terms over all its records, the deleted ones included. */
    totalLength: count,
    files: segmentFilesSchema,
  });

  /**
   * The manifest of format 7: the index is a list of segments, each written once by the commit
   * that added its records (or by a merge of earlier segments) and never changed; later
   * commits delete records by listing them in the `deletes` file. `chunks`, `documents` and
   * `totalLength` count the live records. Searches see the segments as one index of their
   * live records, in segment order (segments/compose-snapshot.ts).
   */
  return z.strictObject({
    format: z.literal(indexFormat),
    formatVersion: z.literal(7),
    generation: z.number().int().positive(),
    id: z.string().regex(/^[0-9a-f]{16}$/),
    committedAt: z.string(),
    chunks: count,
    documents: count,
    totalLength: count,
    analyzer: z.strictObject({ version: z.string() }),
    blockBytes: z.number().int().positive(),
    blockHash: z.literal("xxh64"),
    boundBlockPostings: z.number().int().positive(),
    bm25: z.strictObject({ k1: z.number(), b: z.number() }),
    embedder: index.shape.embedder,
    vectors: index.shape.vectors,
    segments: z.array(segmentEntrySchema),
    files: z.strictObject({
      /** Per metadata key, the live records carrying it and its values' counts (key-counts-file.ts). */
      facets: fileEntrySchema,
      /** Every segment's deleted slots (deletes-file.ts); absent when none is deleted. */
      deletes: fileEntrySchema.optional(),
    }),
    checksum: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
  });
}

/** The schema of a format-7 manifest, built (and zod loaded) on first use: `readPlainSegmentedManifest` reads a plainly valid one without it. */
export const segmentedManifestSchema = schemaOnDemand(buildSegmentedManifestSchema);

// A segment's files: a format-6 generation's without the metadata counts, its bounds and blocks required.
const { facets: _wholeIndexOnly, ...generationFiles } = plainManifestParts.files;
const plainSegmentFiles = plainStrictObject({
  ...generationFiles,
  bounds: plainManifestParts.fileEntry,
  blocks: plainManifestParts.fileEntry,
});

/** `segmentedManifestSchema` in plain checks (internal/plain-shape.ts): what they accept, the schema reads to the same value. */
const plainSegmentedManifest = plainStrictObject({
  format: plainLiteral(indexFormat),
  formatVersion: plainLiteral(7),
  generation: plainWhole(1),
  id: plainMatch(/^[0-9a-f]{16}$/),
  committedAt: plainString,
  chunks: plainManifestParts.count,
  documents: plainManifestParts.count,
  totalLength: plainManifestParts.count,
  analyzer: plainManifestParts.analyzer,
  blockBytes: plainWhole(1),
  blockHash: plainLiteral("xxh64"),
  boundBlockPostings: plainWhole(1),
  bm25: plainManifestParts.bm25,
  embedder: plainManifestParts.embedder,
  vectors: plainManifestParts.vectors,
  segments: plainArray(
    plainStrictObject({
      chunks: plainManifestParts.count,
      deleted: plainManifestParts.count,
      terms: plainManifestParts.count,
      postings: plainManifestParts.count,
      totalLength: plainManifestParts.count,
      files: plainSegmentFiles,
    }),
  ),
  files: plainStrictObject({ facets: plainManifestParts.fileEntry, deletes: plainOptional(plainManifestParts.fileEntry) }),
  checksum: plainManifestParts.checksum,
});

/** A format-7 manifest read by plain checks, or undefined when they do not accept it (the schema then says why). */
export function readPlainSegmentedManifest(json: unknown): SegmentedManifest | undefined {
  return plainSegmentedManifest(json)?.value as SegmentedManifest | undefined;
}

export type SegmentedManifest = Zod.infer<ReturnType<typeof segmentedManifestSchema>>;
export type SegmentEntry = SegmentedManifest["segments"][number];

/** What `manifest.json` holds: one generation (formats 1 to 6) or a list of segments (format 7). */
export type StoredManifest = IndexManifest | SegmentedManifest;

export function isSegmented(manifest: StoredManifest): manifest is SegmentedManifest {
  return manifest.formatVersion >= 7;
}

/**
 * Segment `index` of a format-7 manifest as the manifest of one generation, so it is opened
 * and checked as a generation is (load-lazy-generation.ts). Its counts are the segment's,
 * deleted records included.
 */
export function segmentManifest(
  manifest: Omit<SegmentedManifest, "chunks" | "documents" | "totalLength" | "files">,
  index: number,
): IndexManifest {
  const segment = manifest.segments[index] as SegmentEntry;
  const { segments: _, ...shared } = manifest;
  return {
    ...shared,
    chunks: segment.chunks,
    documents: 0,
    terms: segment.terms,
    postings: segment.postings,
    totalLength: segment.totalLength,
    files: segment.files,
  };
}

/**
 * What is inconsistent in a format-7 manifest the schema accepted, or undefined: a segment
 * deleting more records than it holds, live records that do not add up to `chunks`, more
 * documents than chunks or more indexed terms than the segments hold, a file listed twice
 * (a segment listed twice would serve its records twice).
 */
export function segmentedManifestProblem(manifest: SegmentedManifest): string | undefined {
  let live = 0;
  let length = 0;
  const listedBy = new Map<string, string>();
  for (const [index, segment] of manifest.segments.entries()) {
    if (segment.deleted > segment.chunks) return `segment ${index} counts ${segment.deleted} deleted records of its ${segment.chunks}`;
    live += segment.chunks - segment.deleted;
    length += segment.totalLength;
    for (const entry of Object.values(segment.files)) {
      if (entry === undefined) continue;
      const earlier = listedBy.get(entry.name);
      if (earlier !== undefined) return `${entry.name} is listed by ${earlier} and again by segment ${index}`;
      listedBy.set(entry.name, `segment ${index}`);
    }
  }
  for (const entry of Object.values(manifest.files)) {
    if (entry !== undefined && listedBy.has(entry.name))
      return `${entry.name} is listed by ${listedBy.get(entry.name)} and again by the index`;
  }
  if (live !== manifest.chunks) return `it counts ${manifest.chunks} chunks but its segments hold ${live} live records`;
  if (manifest.documents > manifest.chunks) return `it counts ${manifest.documents} documents in ${manifest.chunks} chunks`;
  if (manifest.totalLength > length) return `it counts ${manifest.totalLength} indexed terms but its segments hold ${length}`;
  return undefined;
}

/** Every file a stored manifest lists: a generation's data files, or every segment's and the index's own. */
export function storedFileEntries(manifest: StoredManifest): IndexFileEntry[] {
  const own = Object.values(manifest.files).filter((entry): entry is IndexFileEntry => entry !== undefined);
  if (!isSegmented(manifest)) return own;
  return [...manifest.segments.flatMap((segment) => Object.values(segment.files).filter((entry) => entry !== undefined)), ...own];
}
