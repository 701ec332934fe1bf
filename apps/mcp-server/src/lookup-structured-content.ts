import type { LookupResult } from "@lookup-knowledge/core";
import { z } from "zod";

/** One evidence block as the MCP tool returns it: what the model reads, with its score and rank. */
const evidenceSchema = z.object({
  /** The evidence key: the id the text content cites and `fetch_evidence` takes. */
  document_id: z.string(),
  source: z.string(),
  title: z.string().optional(),
  breadcrumb: z.string().optional(),
  /** The store's normalised similarity, 0..1, when it gave one. */
  score: z.number().optional(),
  rank: z.number().int(),
  hitReasons: z.array(z.string()),
  /** The content as packed for the model (cut to the context budget when `truncated`). */
  content: z.string(),
  truncated: z.boolean(),
  retrievalLayer: z.string(),
});

/** The `structuredContent` of `lookup_knowledge`: the result a program reads beside the text. */
export const lookupStructuredContentSchema = z.object({
  found: z.boolean(),
  evidenceStatus: z.enum(["evidence", "no_evidence"]),
  message: z.string(),
  relevance: z.enum(["high", "medium", "low", "unscored", "none"]),
  completeness: z.object({ status: z.enum(["complete", "partial", "none"]), notes: z.array(z.string()) }),
  evidence: z.array(evidenceSchema),
  contextSummary: z.object({
    budget: z.number(),
    used: z.number(),
    includedSources: z.array(z.string()),
    omittedSources: z.array(z.string()),
    omitted: z.array(z.object({ document_id: z.string(), source: z.string(), reason: z.string() })),
    truncated: z.array(z.string()),
  }),
  fallbackReason: z.string().optional(),
});

export type LookupStructuredContent = z.infer<typeof lookupStructuredContentSchema>;

/** The structured form of a lookup: the packed blocks (what the model read), scored and ranked. */
export function lookupStructuredContent(result: LookupResult): LookupStructuredContent {
  const fallbackReason = result.retrievalTrace.fallbackReason;
  const common = {
    found: result.found,
    evidenceStatus: result.evidenceStatus,
    message: result.message,
    relevance: result.relevanceLevel,
    completeness: { status: result.completenessHint.status, notes: [...result.completenessHint.notes] },
    ...(fallbackReason === undefined ? {} : { fallbackReason }),
  };
  if (!result.found) {
    return {
      ...common,
      evidence: [],
      contextSummary: { budget: 0, used: 0, includedSources: [], omittedSources: [], omitted: [], truncated: [] },
    };
  }
  const byKey = new Map(result.evidenceBlocks.map((block) => [block.evidenceKey, block]));
  const { contextPack } = result;
  return {
    ...common,
    evidence: contextPack.blocks.map((block, index) => {
      const ranked = byKey.get(block.evidenceKey);
      return {
        document_id: block.evidenceKey,
        source: block.source,
        ...(block.title === undefined ? {} : { title: block.title }),
        ...(block.breadcrumb === undefined ? {} : { breadcrumb: block.breadcrumb }),
        ...(ranked?.score === undefined ? {} : { score: ranked.score }),
        rank: ranked?.rank ?? index + 1,
        hitReasons: [...block.hitReasons],
        content: block.content,
        truncated: block.truncated,
        retrievalLayer: ranked?.retrievalLayer ?? "L1",
      };
    }),
    contextSummary: {
      budget: contextPack.budget,
      used: contextPack.used,
      includedSources: [...contextPack.summary.includedSources],
      omittedSources: [...contextPack.summary.omittedSources],
      omitted: contextPack.summary.omitted.map((entry) => ({ document_id: entry.evidenceKey, source: entry.source, reason: entry.reason })),
      truncated: [...contextPack.summary.truncated],
    },
  };
}
