import { Document } from "@langchain/core/documents";
import type { LookupResult, RetrievalLayer } from "@lookup-knowledge/core";

/** The metadata of each `Document` a lookup becomes; fields without a value are left out. */
export type KnowledgeDocumentMetadata = {
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
 * The documents of a lookup: one per block of the context pack, in the pack's order, with
 * the packed content the model would read (cut to the context budget, R25) as `pageContent`.
 * Score, rank and retrieval layer come from the evidence block of the same evidenceKey.
 * Blocks the budget left out of the pack are not documents; they stay in the result.
 * `found=false` gives none.
 */
export function lookupResultToDocuments(result: LookupResult): Document<KnowledgeDocumentMetadata>[] {
  if (!result.found) return [];
  const evidence = new Map(result.evidenceBlocks.map((block) => [block.evidenceKey, block]));
  return result.contextPack.blocks.map((block) => {
    const matched = evidence.get(block.evidenceKey);
    const metadata: KnowledgeDocumentMetadata = {
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
