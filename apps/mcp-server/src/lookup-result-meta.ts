import { documentIdOf, escapeKnowledgeText } from "@lookup-knowledge/agent-tool/format";
import type { LookupResult } from "@lookup-knowledge/core";
import { z } from "zod";

// `@langchain/mcp-adapters` hands `_meta` to the model beside the text, so its strings from
// the knowledge base are escaped as the text's are: a title or source cannot start a line or
// open an element.
const line = (text: string) => escapeKnowledgeText(text, "line");

/** One evidence block as a program reads it: which chunk, from where, scored and ranked; its content is in the text. */
const evidenceEntrySchema = z.object({
  /** The evidence key: the id the text content cites and `fetch_evidence` takes. */
  document_id: z.string(),
  source: z.string(),
  title: z.string().optional(),
  /** The store's normalised similarity, 0..1, when it gave one. */
  score: z.number().optional(),
  rank: z.number().int(),
  /** Whether the content in the text was cut to the context budget. */
  truncated: z.boolean(),
});

/**
 * The `_meta["lookup-knowledge/result"]` of a `lookup_knowledge` answer: the facts a program
 * branches on, without the evidence (the text content carries it, once).
 */
export const lookupResultMetaSchema = z.object({
  found: z.boolean(),
  evidenceStatus: z.enum(["evidence", "no_evidence"]),
  relevance: z.enum(["high", "medium", "low", "unscored", "none"]),
  completeness: z.enum(["complete", "partial", "none"]),
  evidence: z.array(evidenceEntrySchema),
  /** Blocks found but left out of the text, and why. */
  omitted: z.array(z.object({ document_id: z.string(), source: z.string(), reason: z.string() })),
  /** Characters of evidence content the text may hold, and holds. */
  contextBudget: z.object({ budget: z.number(), used: z.number() }),
  fallbackReason: z.string().optional(),
});

export type LookupResultMeta = z.infer<typeof lookupResultMetaSchema>;

/** What a program reads of a lookup beside its text: the packed blocks' ids, sources, scores and ranks. */
export function lookupResultMeta(result: LookupResult): LookupResultMeta {
  const fallbackReason = result.retrievalTrace.fallbackReason;
  const common = {
    found: result.found,
    evidenceStatus: result.evidenceStatus,
    relevance: result.relevanceLevel,
    completeness: result.completenessHint.status,
    ...(fallbackReason === undefined ? {} : { fallbackReason }),
  };
  if (!result.found) return { ...common, evidence: [], omitted: [], contextBudget: { budget: 0, used: 0 } };
  const byKey = new Map(result.evidenceBlocks.map((block) => [block.evidenceKey, block]));
  const { contextPack } = result;
  return {
    ...common,
    evidence: contextPack.blocks.map((block, index) => {
      const ranked = byKey.get(block.evidenceKey);
      return {
        document_id: documentIdOf(block.evidenceKey),
        source: line(block.source),
        ...(block.title === undefined ? {} : { title: line(block.title) }),
        ...(ranked?.score === undefined ? {} : { score: ranked.score }),
        rank: ranked?.rank ?? index + 1,
        truncated: block.truncated,
      };
    }),
    omitted: contextPack.summary.omitted.map((entry) => ({
      document_id: documentIdOf(entry.evidenceKey),
      source: line(entry.source),
      reason: line(entry.reason),
    })),
    contextBudget: { budget: contextPack.budget, used: contextPack.used },
  };
}
