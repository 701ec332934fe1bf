import {
  createLookupKnowledgeInputSchema,
  lookupKnowledgeDescription,
  lookupKnowledgeUsage,
} from "@lookup-knowledge/agent-tool/tool-input";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { fetchEvidenceInputSchema, fetchEvidenceStructuredContentSchema } from "./fetch-evidence.js";
import { lookupStructuredContentSchema } from "./lookup-structured-content.js";
import type { McpServerSettings } from "./mcp-server-settings.js";

/** One tool of the server: what `tools/list` shows, the schema its arguments are parsed with, and how to call it. */
export interface KnowledgeMcpTool<Schema extends z.ZodType = z.ZodType> {
  definition: Tool;
  input: Schema;
  usage: string;
}

export const fetchToolName = "fetch_evidence";

/**
 * A zod schema as a tool's declared JSON Schema (2020-12, the protocol's default dialect): an
 * input schema as the arguments come in, an output schema as the content goes out.
 */
function toolJsonSchema(schema: z.ZodType, io: "input" | "output"): Tool["inputSchema"] {
  return z.toJSONSchema(schema, { target: "draft-2020-12", io }) as Tool["inputSchema"];
}

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const lookupOutputSchema = toolJsonSchema(lookupStructuredContentSchema, "output");
const fetchOutputSchema = toolJsonSchema(fetchEvidenceStructuredContentSchema, "output");

/**
 * The server's tools under its settings: `lookup_knowledge` (or its configured name), whose
 * input schema is the library's (`createLookupKnowledgeInputSchema`, the LangChain tool's, with
 * the server's query bound and caller filter), and `fetch_evidence`.
 */
export function knowledgeMcpTools(settings: McpServerSettings) {
  const lookupName = settings.toolName;
  const lookupInput = createLookupKnowledgeInputSchema({ maxQueryChars: settings.maxQueryChars, callerFilter: settings.callerFilter });
  const fetchInput = fetchEvidenceInputSchema(lookupName);
  const lookup: KnowledgeMcpTool<typeof lookupInput> = {
    definition: {
      name: lookupName,
      title: "Look up knowledge",
      description: settings.description ?? lookupKnowledgeDescription,
      inputSchema: toolJsonSchema(lookupInput, "input"),
      outputSchema: lookupOutputSchema,
      annotations: { title: "Look up knowledge", ...readOnly },
    },
    input: lookupInput,
    usage: lookupKnowledgeUsage(lookupName, { callerFilter: settings.callerFilter }),
  };
  const fetch: KnowledgeMcpTool<typeof fetchInput> = {
    definition: {
      name: fetchToolName,
      title: "Fetch a whole chunk",
      description: `Read the whole chunk a ${lookupName} result cites by its document_id, with the document_ids of the chunks before and after it.`,
      inputSchema: toolJsonSchema(fetchInput, "input"),
      outputSchema: fetchOutputSchema,
      annotations: { title: "Fetch a whole chunk", ...readOnly },
    },
    input: fetchInput,
    usage: `Call ${fetchToolName} with {"document_id": "<a document_id from a ${lookupName} result>"}.`,
  };
  return { lookup, fetch };
}
