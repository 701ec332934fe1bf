import { documentIdOf, escapeKnowledgeText } from "@lookup-knowledge/agent-tool/format";
import type { LookupResult } from "@lookup-knowledge/core";
import { z } from "zod";

// Some clients hand the structured content to the model as well (`@langchain/mcp-adapters`
// puts it beside the text), so its strings from the knowledge base are escaped as the text's
// are: content cannot close an <evidence> element, a title or note cannot start a line.
const line = (text: string) => escapeKnowledgeText(text, "line");
const content = (text: string) => escapeKnowledgeText(text, "content");

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

/**
 * The structured form of a lookup: the packed blocks (what the model read), scored and ranked,
 * every string from the knowledge base escaped as in the text content.
 */
export function lookupStructuredContent(result: LookupResult): LookupStructuredContent {
  const fallbackReason = result.retrievalTrace.fallbackReason;
  const common = {
    found: result.found,
    evidenceStatus: result.evidenceStatus,
    message: line(result.message),
    relevance: result.relevanceLevel,
    completeness: { status: result.completenessHint.status, notes: result.completenessHint.notes.map(line) },
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
        document_id: documentIdOf(block.evidenceKey),
        source: line(block.source),
        ...(block.title === undefined ? {} : { title: line(block.title) }),
        ...(block.breadcrumb === undefined ? {} : { breadcrumb: line(block.breadcrumb) }),
        ...(ranked?.score === undefined ? {} : { score: ranked.score }),
        rank: ranked?.rank ?? index + 1,
        hitReasons: block.hitReasons.map(line),
        content: content(block.content),
        truncated: block.truncated,
        retrievalLayer: ranked?.retrievalLayer ?? "L1",
      };
    }),
    contextSummary: {
      budget: contextPack.budget,
      used: contextPack.used,
      includedSources: contextPack.summary.includedSources.map(line),
      omittedSources: contextPack.summary.omittedSources.map(line),
      omitted: contextPack.summary.omitted.map((entry) => ({
        document_id: documentIdOf(entry.evidenceKey),
        source: line(entry.source),
        reason: line(entry.reason),
      })),
      truncated: contextPack.summary.truncated.map(line),
    },
  };
}
