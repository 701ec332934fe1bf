import { z } from "zod";

/** The only file with a fixed name; everything else is named by its generation. */
export const manifestFileName = "manifest.json";

/** The format this version writes and reads. */
export const indexFormat = "lookup-knowledge/local-index";
export const indexFormatVersion = 1;

/**
 * The tokenizer the lexicon was built with. Queries must be tokenised the same way, so an
 * index built by another tokenizer version is refused (rebuild it).
 */
export const tokenizerVersion = "porter-stop-cjk-1";

const fileEntrySchema = z.strictObject({
  name: z.string().regex(/^\d{8}\.[a-z]+\.(?:json|txt|bin)$/),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

const count = z.number().int().nonnegative();

export const indexManifestSchema = z.strictObject({
  format: z.literal(indexFormat),
  formatVersion: z.number().int().positive(),
  generation: z.number().int().positive(),
  committedAt: z.string(),
  chunks: count,
  documents: count,
  terms: count,
  postings: count,
  totalLength: count,
  tokenizer: z.strictObject({ version: z.string(), cjk: z.enum(["segmenter", "bigrams"]) }),
  bm25: z.strictObject({ k1: z.number(), b: z.number() }),
  embedder: z.strictObject({ id: z.string(), version: z.string(), dimension: z.number().int().positive() }).nullable(),
  vectors: z.strictObject({ encoding: z.literal("int8"), stride: z.number().int().positive() }).nullable(),
  files: z.strictObject({
    keys: fileEntrySchema,
    terms: fileEntrySchema,
    postings: fileEntrySchema,
    offsets: fileEntrySchema,
    content: fileEntrySchema,
    metadata: fileEntrySchema,
    vectors: fileEntrySchema.optional(),
  }),
});

/** The manifest: what a committed generation holds and how to check its files. */
export type IndexManifest = z.infer<typeof indexManifestSchema>;
export type IndexFileEntry = z.infer<typeof fileEntrySchema>;
export type IndexFileKind = keyof IndexManifest["files"];

/** Data file names: `00000007.postings.bin`. */
export function generationFileName(generation: number, kind: IndexFileKind): string {
  const extension = kind === "keys" ? "json" : kind === "terms" || kind === "content" || kind === "metadata" ? "txt" : "bin";
  return `${String(generation).padStart(8, "0")}.${kind}.${extension}`;
}

/** Files this port writes in an index folder (data files of any generation, manifest temporaries). */
export const ownedFilePattern = /^(?:\d{8}\.(?:keys|terms|postings|offsets|content|metadata|vectors)\.(?:json|txt|bin)|manifest\.json\.[^/]+)$/;
