import { randomBytes } from "node:crypto";
import { schemaOnDemand } from "@lookup-knowledge/core/load-zod";
import type { z as Zod } from "zod";
import {
  type PlainShape,
  plainLiteral,
  plainMatch,
  plainNullable,
  plainNumber,
  plainOptional,
  plainStrictObject,
  plainString,
  plainWhole,
} from "../../internal/plain-shape.js";

/** The only file with a fixed name; everything else is named by its generation. */
export const manifestFileName = "manifest.json";

/**
 * The format this version writes (it reads every version up to it). Version 6 adds a
 * `facets` file: per metadata key, the records carrying it and its values' counts
 * (key-counts-file.ts), kept up to date at each commit from the last one's, so `stats` need
 * not read every record; an older index is counted when asked. Version 5 adds a
 * `bounds` file: every term's block score bounds (stored-score-bounds.ts), so a reader's
 * first search of a common term need not pass over all its postings; and its block
 * checksums are 64-bit xxHashes (`blockHash`), about 5x as fast to check. Version 4 keeps the
 * SHA-256 of every 64 KB block of every data file in a `blocks` file, so readers check
 * only what they read and open at once; its keys file is binary (keys-file.ts) and its
 * postings file ends with the terms' byte ends (file-lexicon.ts). Version 3 records the
 * text analyser's version (`analyzer`) instead of a tokenizer's; version 2 names data
 * files by generation and commit id (`00000007-<id>.postings.bin`) and records the id in
 * the manifest; version 1 named them by generation alone.
 */
export const indexFormat = "lookup-knowledge/local-index";
export const indexFormatVersion = 7;

/** The last format of one generation per commit (every format before segments, segmented-manifest.ts). */
export const lastGenerationFormatVersion = 6;

function fileEntrySchema(z: typeof Zod) {
  return z.strictObject({
    name: z.string().regex(/^\d{8}(?:-[0-9a-f]{16})?\.[a-z]+\.(?:json|txt|bin)$/),
    bytes: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  });
}

function buildIndexManifestSchema(z: typeof Zod) {
  const count = z.number().int().nonnegative();
  const fileEntry = fileEntrySchema(z);
  return z.strictObject({
    format: z.literal(indexFormat),
    formatVersion: z.number().int().positive(),
    generation: z.number().int().positive(),
    /** The commit's random id, also in its data file names (absent in format version 1). */
    id: z
      .string()
      .regex(/^[0-9a-f]{16}$/)
      .optional(),
    committedAt: z.string(),
    chunks: count,
    documents: count,
    terms: count,
    postings: count,
    totalLength: count,
    /**
     * The text analyser the lexicon was built with (`analyzerVersion` of
     * `@lookup-knowledge/text`); queries must be analysed the same way. Absent before format 3.
     */
    analyzer: z.strictObject({ version: z.string() }).optional(),
    /** Formats 1 and 2: the tokenizer of the search port before `@lookup-knowledge/text`. */
    tokenizer: z.strictObject({ version: z.string(), cjk: z.string() }).optional(),
    /** Format 4: the size of the blocks the `blocks` file holds a checksum of. */
    blockBytes: z.number().int().positive().optional(),
    /** Format 5: how those checksums are made (block-checksums.ts); absent: SHA-256, as format 4 made them. */
    blockHash: z.enum(["sha256", "xxh64"]).optional(),
    /** Format 5: postings per block of the `bounds` file (`boundBlockPostings` when written). */
    boundBlockPostings: z.number().int().positive().optional(),
    bm25: z.strictObject({ k1: z.number(), b: z.number() }),
    embedder: z.strictObject({ id: z.string(), version: z.string(), dimension: z.number().int().positive() }).nullable(),
    vectors: z.strictObject({ encoding: z.literal("int8"), stride: z.number().int().positive() }).nullable(),
    files: z.strictObject({
      keys: fileEntry,
      terms: fileEntry,
      postings: fileEntry,
      offsets: fileEntry,
      content: fileEntry,
      metadata: fileEntry,
      vectors: fileEntry.optional(),
      /** Format 5: every term's block score bounds. */
      bounds: fileEntry.optional(),
      /** Format 6: per metadata key, the records carrying it and its values' counts (key-counts-file.ts). */
      facets: fileEntry.optional(),
      /** Format 4: the SHA-256 of each block of the files above, in `checksummedKinds` order. */
      blocks: fileEntry.optional(),
    }),
    /**
     * The SHA-256 of the manifest's other fields as written (`manifestChecksum`), so a changed
     * count or statistic is refused instead of silently changing scores. Absent in manifests
     * written before it was added; those are read as they are.
     */
    checksum: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
  });
}

/**
 * The schema of a manifest of formats 1 to 6, built (and zod loaded) on first use:
 * `readIndexManifest` reads a plainly valid manifest without it (issue 36 item 5).
 */
export const indexManifestSchema = schemaOnDemand(buildIndexManifestSchema);

const plainFileEntry = plainStrictObject({
  name: plainMatch(/^\d{8}(?:-[0-9a-f]{16})?\.[a-z]+\.(?:json|txt|bin)$/),
  bytes: plainWhole(0),
  sha256: plainMatch(/^[0-9a-f]{64}$/),
});
const plainCount = plainWhole(0);
const plainFileShapes = {
  keys: plainFileEntry,
  terms: plainFileEntry,
  postings: plainFileEntry,
  offsets: plainFileEntry,
  content: plainFileEntry,
  metadata: plainFileEntry,
  vectors: plainOptional(plainFileEntry),
  bounds: plainOptional(plainFileEntry),
  facets: plainOptional(plainFileEntry),
  blocks: plainOptional(plainFileEntry),
} as const;

/** The shapes a manifest of format 7 shares with the older ones (segmented-manifest.ts). */
export const plainManifestParts = {
  fileEntry: plainFileEntry,
  count: plainCount,
  files: plainFileShapes,
  bm25: plainStrictObject({ k1: plainNumber, b: plainNumber }),
  embedder: plainNullable(plainStrictObject({ id: plainString, version: plainString, dimension: plainWhole(1) })),
  vectors: plainNullable(plainStrictObject({ encoding: plainLiteral("int8"), stride: plainWhole(1) })),
  analyzer: plainStrictObject({ version: plainString }),
  checksum: plainOptional(plainMatch(/^[0-9a-f]{64}$/)),
} satisfies Record<string, PlainShape | Record<string, PlainShape>>;

/** `indexManifestSchema` in plain checks: what they accept, the schema reads to the same value. */
const plainIndexManifest = plainStrictObject({
  format: plainLiteral(indexFormat),
  formatVersion: plainWhole(1),
  generation: plainWhole(1),
  id: plainOptional(plainMatch(/^[0-9a-f]{16}$/)),
  committedAt: plainString,
  chunks: plainCount,
  documents: plainCount,
  terms: plainCount,
  postings: plainCount,
  totalLength: plainCount,
  analyzer: plainOptional(plainManifestParts.analyzer),
  tokenizer: plainOptional(plainStrictObject({ version: plainString, cjk: plainString })),
  blockBytes: plainOptional(plainWhole(1)),
  blockHash: plainOptional(plainLiteral("sha256", "xxh64")),
  boundBlockPostings: plainOptional(plainWhole(1)),
  bm25: plainManifestParts.bm25,
  embedder: plainManifestParts.embedder,
  vectors: plainManifestParts.vectors,
  files: plainStrictObject(plainFileShapes),
  checksum: plainManifestParts.checksum,
});

/** A manifest of formats 1 to 6 read by plain checks, or undefined when they do not accept it (the schema then says why). */
export function readPlainIndexManifest(json: unknown): IndexManifest | undefined {
  return plainIndexManifest(json)?.value as IndexManifest | undefined;
}

/**
 * What a committed generation holds and how to check its files: the manifest of formats 1 to
 * 6, and of each segment of format 7 (`segmentManifest`, segmented-manifest.ts).
 */
export type IndexManifest = Zod.infer<ReturnType<typeof indexManifestSchema>>;
export type IndexFileEntry = Zod.infer<ReturnType<typeof fileEntrySchema>>;
export type IndexFileKind = keyof IndexManifest["files"];

/** The file entries a manifest lists (a lexical-only index has no vectors entry). */
export function manifestFileEntries(manifest: IndexManifest): IndexFileEntry[] {
  return Object.values(manifest.files).filter((entry): entry is IndexFileEntry => entry !== undefined);
}

/** The analyser version a manifest records, or a description of its absence (an index older than format 3). */
export function recordedAnalyzerVersion(manifest: Pick<IndexManifest, "analyzer"> & Partial<Pick<IndexManifest, "tokenizer">>): string {
  if (manifest.analyzer !== undefined) return manifest.analyzer.version;
  const tokenizer = manifest.tokenizer === undefined ? "" : ` (tokenizer ${manifest.tokenizer.version}/${manifest.tokenizer.cjk})`;
  return `none recorded${tokenizer}`;
}

/** A fresh random commit id: 16 hex digits. */
export function newCommitId(): string {
  return randomBytes(8).toString("hex");
}

/**
 * Data file names: `00000007-0123456789abcdef.postings.bin`, the generation and the
 * commit id, so no two commits (not even two writers that both believe they hold the
 * lock) ever write to the same file.
 */
export function generationFileName(generation: number, commitId: string, kind: IndexFileKind | "deletes"): string {
  const extension = kind === "terms" || kind === "content" || kind === "metadata" ? "txt" : kind === "facets" ? "json" : "bin";
  return `${String(generation).padStart(8, "0")}-${commitId}.${kind}.${extension}`;
}

/** The temporary a commit writes its manifest to before renaming it to `manifest.json`. */
export function manifestTemporaryName(commitId: string): string {
  return `${manifestFileName}.${commitId}.tmp`;
}

/**
 * Files this port writes in an index folder: data files of any generation (with or
 * without a commit id) and manifest temporaries (this port's and `write-file-atomic`'s of
 * format version 1).
 */
export const ownedFilePattern =
  /^(?:\d{8}(?:-[0-9a-f]{16})?\.(?:keys|terms|postings|offsets|content|metadata|vectors|bounds|facets|blocks|deletes)\.(?:json|txt|bin)|manifest\.json\.[^/]+)$/;

/** Whether two manifests describe the same commit (both absent counts as the same). */
export function sameCommit(
  left: Pick<IndexManifest, "generation" | "id" | "committedAt"> | undefined,
  right: Pick<IndexManifest, "generation" | "id" | "committedAt"> | undefined,
): boolean {
  if (left === undefined || right === undefined) return left === right;
  return left.generation === right.generation && left.id === right.id && left.committedAt === right.committedAt;
}
