import type { LookupResult, MetadataFilter } from "@lookup-knowledge/core";
import { validateMetadataFilter } from "@lookup-knowledge/search-port";
import { ToolMessage } from "@langchain/core/messages";
import { tool, type StructuredTool } from "@langchain/core/tools";
import type { KnowledgeRetriever } from "./create-knowledge-retriever.js";
import { lookupKnowledgeDescription } from "./lookup-knowledge-description.js";
import { lookupKnowledgeInputSchema, lookupKnowledgeUsage } from "./lookup-knowledge-input-schema.js";
import { parseToolArguments } from "./parse-tool-arguments.js";
import { renderEvidenceContent } from "./render-evidence-content.js";

export interface LookupKnowledgeToolOptions {
  /** Defaults to `lookup_knowledge`. */
  name?: string;
  /** What the model is told about the knowledge base; a sentence naming its subject helps. */
  description?: string;
  /** A filter imposed on every lookup of this tool (tenant, access scope); never dropped (R12). */
  filter?: MetadataFilter;
}

/**
 * The explicit `lookup_knowledge` tool (R2) for LangChain agents. The content is the
 * packed evidence for the model; the artifact is the whole `LookupResult`
 * (`responseFormat: "content_and_artifact"`). A tool call with invalid arguments (a wrong
 * name, a blank or non-string query, an argument it does not take) is answered with one short
 * error `ToolMessage` naming the problem (in the words of `parseToolArguments`, as the MCP
 * server words it) and the arguments to call it again with (only those), not LangChain's
 * parsing exception and its stack; invoked with plain arguments that do not fit (an unknown one
 * beside a good query included), the tool throws LangChain's `ToolInputParsingException`
 * instead. A failing search never throws. A malformed bound filter is refused here, when the
 * tool is created.
 */
export function createLookupKnowledgeTool(retriever: KnowledgeRetriever, options: LookupKnowledgeToolOptions = {}): StructuredTool {
  const filter = options.filter === undefined ? undefined : validateMetadataFilter(options.filter);
  const created = tool(
    async ({ query }, runConfig): Promise<[string, LookupResult]> => {
      const result = await retriever.lookup(query, {
        ...(filter ? { filter } : {}),
        ...(runConfig?.signal ? { signal: runConfig.signal } : {}),
      });
      return [renderEvidenceContent(result), result];
    },
    {
      name: options.name ?? "lookup_knowledge",
      description: options.description ?? lookupKnowledgeDescription,
      schema: lookupKnowledgeInputSchema,
      responseFormat: "content_and_artifact",
    },
  );
  const invoke = created.invoke.bind(created);
  // An agent loop hands a thrown parsing error to the model whole, stack and local paths
  // included: a tool call with bad arguments gets a short error message of its own instead.
  created.invoke = (async (input: unknown, config?: unknown) => {
    if (isToolCall(input)) {
      const parsed = parseToolArguments(lookupKnowledgeInputSchema, input.args);
      if (!parsed.success) {
        return new ToolMessage({
          content: `Invalid arguments for ${created.name}: ${parsed.problems}. ${lookupKnowledgeUsage("it")}`,
          tool_call_id: input.id ?? "",
          name: created.name,
          status: "error",
        });
      }
    }
    return invoke(input as never, config as never);
  }) as typeof created.invoke;
  return created;
}

function isToolCall(input: unknown): input is { type: "tool_call"; id?: string; args: unknown } {
  return typeof input === "object" && input !== null && (input as { type?: unknown }).type === "tool_call";
}
