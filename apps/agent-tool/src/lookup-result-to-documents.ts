import { Document } from "@langchain/core/documents";
import type { LookupResult, RetrievalLayer } from "@lookup-knowledge/core";

/**
 * The metadata of each `Document` a lookup becomes: the lookup fields below (fields without a
 * value are left out) beside the chunk's own metadata (category, front matter fields, docId,
 * chunkIndex, ...), whose keys that name a lookup field are dropped (see `lookupFieldNames`).
 */
export type KnowledgeDocumentMetadata = {
  /** The chunk's own metadata fields, as its search hit carried them. */
  [key: string]: unknown;
  /** `{docId}#chunk-{chunkIndex}` (R14); also the document's `id`. */
  evidenceKey: string;
  source: string;
  title?: string;
  breadcrumb?: string;
  /** The port's normalised similarity (0..1), when known. */
  score?: number;
  /** Why the block was chosen, e.g. `semantic match 0.82`. */
  hitReasons: string[];
  retrievalLayer?: RetrievalLayer;
  /** 1 is best. */
  rank?: number;
  /** Present (true) when the context budget cut the content short. */
  truncated?: true;
};

/**
 * The keys the lookup sets in `Document.metadata`. They always win: a chunk metadata key of
 * one of these names is dropped, even when the lookup leaves the field unset, so a document's
 * own metadata (which may be hostile) cannot pose as a lookup field (a `score`, `rank` or
 * `source` of its choosing). The chunk's original values stay in the `LookupResult`
 * (`evidenceBlocks[].metadata`).
 */
export const lookupFieldNames: readonly string[] = Object.freeze([
  "evidenceKey",
  "source",
  "title",
  "breadcrumb",
  "score",
  "hitReasons",
  "retrievalLayer",
  "rank",
  "truncated",
]);

const reserved = new Set(lookupFieldNames);

/** The chunk's own metadata without the lookup field names, as own data properties. */
function chunkMetadataOf(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  if (metadata === undefined) return {};
  return Object.fromEntries(Object.entries(metadata).filter(([key]) => !reserved.has(key)));
}

/**
 * The documents of a lookup: one per block of the context pack, in the pack's order, with
 * the packed content the model would read (cut to the context budget, R25) as `pageContent`.
 * Score, rank and retrieval layer come from the evidence block of the same evidenceKey, and
 * so does the chunk's own metadata, set beside the lookup fields as data (never rendered
 * into `pageContent`); the lookup fields win over it (see `lookupFieldNames`).
 * Blocks the budget left out of the pack are not documents; they stay in the result.
 * `found=false` gives none.
 */
export function lookupResultToDocuments(result: LookupResult): Document<KnowledgeDocumentMetadata>[] {
  if (!result.found) return [];
  const evidence = new Map(result.evidenceBlocks.map((block) => [block.evidenceKey, block]));
  return result.contextPack.blocks.map((block) => {
    const matched = evidence.get(block.evidenceKey);
    const metadata: KnowledgeDocumentMetadata = {
      ...chunkMetadataOf(matched?.metadata),
      evidenceKey: block.evidenceKey,
      source: block.source,
      ...(block.title === undefined ? {} : { title: block.title }),
      ...(block.breadcrumb === undefined ? {} : { breadcrumb: block.breadcrumb }),
      ...(matched?.score === undefined ? {} : { score: matched.score }),
      hitReasons: [...block.hitReasons],
      ...(matched ? { retrievalLayer: matched.retrievalLayer, rank: matched.rank } : {}),
      ...(block.truncated ? { truncated: true as const } : {}),
    };
    return new Document<KnowledgeDocumentMetadata>({ pageContent: block.content, metadata, id: block.evidenceKey });
  });
}
