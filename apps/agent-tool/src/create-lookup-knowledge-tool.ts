import type { LookupResult, MetadataFilter } from "@lookup-knowledge/core";
import { validateMetadataFilter } from "@lookup-knowledge/search-port";
import { tool, type StructuredTool } from "@langchain/core/tools";
import { z } from "zod";
import type { KnowledgeRetriever } from "./create-knowledge-retriever.js";
import { renderEvidenceContent } from "./render-evidence-content.js";

export interface LookupKnowledgeToolOptions {
  /** Defaults to `lookup_knowledge`. */
  name?: string;
  /** What the model is told about the knowledge base; a sentence naming its subject helps. */
  description?: string;
  /** A filter imposed on every lookup of this tool (tenant, access scope); never dropped (R12). */
  filter?: MetadataFilter;
}

const defaultDescription =
  "Look up evidence in the company knowledge base. Call it with a focused question or keywords. " +
  "It returns evidence blocks with their document_id, source and the reasons each was chosen, " +
  "or says plainly that the knowledge base has no evidence.";

export const lookupKnowledgeInputSchema = z.object({
  query: z
    .string()
    .refine((query) => query.trim() !== "", "query must contain text")
    .describe("What to look up: a question or keywords, in the user's language."),
});

/**
 * The explicit `lookup_knowledge` tool (R2) for LangChain agents. The content is the
 * packed evidence for the model; the artifact is the whole `LookupResult`
 * (`responseFormat: "content_and_artifact"`). Invalid input is refused with a clear error,
 * which an agent loop hands back to the model; a failing search never throws. A malformed
 * bound filter is refused here, when the tool is created.
 */
export function createLookupKnowledgeTool(
  retriever: KnowledgeRetriever,
  options: LookupKnowledgeToolOptions = {},
): StructuredTool {
  const filter = options.filter === undefined ? undefined : validateMetadataFilter(options.filter);
  return tool(
    async ({ query }, runConfig): Promise<[string, LookupResult]> => {
      const result = await retriever.lookup(query, {
        ...(filter ? { filter } : {}),
        ...(runConfig?.signal ? { signal: runConfig.signal } : {}),
      });
      return [renderEvidenceContent(result), result];
    },
    {
      name: options.name ?? "lookup_knowledge",
      description: options.description ?? defaultDescription,
      schema: lookupKnowledgeInputSchema,
      responseFormat: "content_and_artifact",
    },
  );
}
