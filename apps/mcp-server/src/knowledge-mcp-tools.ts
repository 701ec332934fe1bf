import {
  createLookupKnowledgeInputSchema,
  lookupKnowledgeDescription,
  lookupKnowledgeUsage,
} from "@lookup-knowledge/agent-tool/tool-input";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { fetchEvidenceInputSchema } from "./fetch-evidence.js";
import type { McpServerSettings } from "./mcp-server-settings.js";

/** One tool of the server: what `tools/list` shows, the schema its arguments are parsed with, and how to call it. */
export interface KnowledgeMcpTool<Schema extends z.ZodType = z.ZodType> {
  definition: Tool;
  input: Schema;
  usage: string;
}

export const fetchToolName = "fetch_evidence";

/**
 * An input schema as the arguments come in, in the subset of JSON Schema that model providers'
 * function-calling schemas take, since many clients hand it to the model as it is: `type`,
 * `properties`, `required`, `additionalProperties: false`, `description`, `minLength`,
 * `maxLength`. Left out, while the arguments are still parsed with the whole zod schema:
 * `$schema` (2020-12 is the protocol's default; Gemini refuses the key), a record's
 * `propertyNames` and `additionalProperties: {}` (a `filter` is `{type: "object"}`: Gemini
 * refuses `propertyNames`), and every `pattern` (the query's non-blank check, `\S`: grammar
 * builders for constrained decoding refuse an unanchored pattern or anchor it into "one
 * character"; `minLength: 1` stays, and a blank query is refused with a sentence saying so).
 */
function toolInputJsonSchema(schema: z.ZodType): Tool["inputSchema"] {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io: "input",
    override: ({ zodSchema, jsonSchema }) => {
      delete jsonSchema.pattern;
      if (zodSchema._zod.def.type === "record") {
        delete jsonSchema.propertyNames;
        delete jsonSchema.additionalProperties;
      }
    },
  });
  return json as Tool["inputSchema"];
}

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * The server's tools under its settings: `lookup_knowledge` (or its configured name), whose
 * input schema is the library's (`createLookupKnowledgeInputSchema`, the LangChain tool's, with
 * the server's query bound and caller filter), and `fetch_evidence`. Neither declares an
 * `outputSchema`: their answers carry the evidence once, in the text content, and what a
 * program reads beside it in `_meta` (README, "One answer, the evidence once").
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
      inputSchema: toolInputJsonSchema(lookupInput),
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
      inputSchema: toolInputJsonSchema(fetchInput),
      annotations: { title: "Fetch a whole chunk", ...readOnly },
    },
    input: fetchInput,
    usage: `Call ${fetchToolName} again with only these arguments: {"document_id": "<a document_id from a ${lookupName} result>"}.`,
  };
  return { lookup, fetch };
}
