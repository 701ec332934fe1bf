import { createRequire } from "node:module";
import {
  InvalidFilterError,
  InvalidQueryError,
  LookupKnowledgeError,
  errorMessage,
  type LookupResult,
  type MetadataFilter,
} from "@lookup-knowledge/core";
import { renderEvidenceContent } from "@lookup-knowledge/agent-tool/format";
import { andFilters, canFetchRecords, validateMetadataFilter, type KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { fetchEvidence, fetchedEvidenceMeta, renderFetchedEvidence } from "./fetch-evidence.js";
import { fetchToolName, knowledgeMcpTools } from "./knowledge-mcp-tools.js";
import { lookupResultMeta } from "./lookup-result-meta.js";
import { readMcpServerSettings, type McpServerSettings } from "./mcp-server-settings.js";
import { protocolError } from "./protocol-error.js";
import { readToolArguments } from "./read-tool-arguments.js";
import { resultMetaKey } from "./result-meta-key.js";
import { serveSourceDocuments } from "./serve-source-documents.js";
import { ToolArgumentError } from "./tool-argument-error.js";
import { createToolCallTracer } from "./trace-tool-call.js";

const version = (createRequire(import.meta.url)("../package.json") as { version: string }).version;

/** What the server serves: a retriever for lookups, and the store behind it for chunks and sources. */
export interface KnowledgeMcpServerOptions {
  /** The retriever `lookup_knowledge` calls (`openKnowledgeBase(...).retriever`). */
  retriever: { lookup(query: string, options?: { filter?: MetadataFilter; signal?: AbortSignal }): Promise<LookupResult> };
  /** The store: its port reads chunks back (`fetch_evidence`), its state folder holds the ingest manifest (resources). */
  store: { port: KnowledgeSearchPort; stateDirectory: string };
  /** The `mcp` settings (`readMcpServerSettings` checks them): fixed filter, caller filters, limits, tool name. */
  settings?: Partial<McpServerSettings> | McpServerSettings;
}

/**
 * The MCP server of a knowledge base: the tools `lookup_knowledge` (the same lookup, and the
 * same fenced text content, as the LangChain tool; ids, sources and scores for programs in
 * `_meta`) and `fetch_evidence` (a whole chunk and its neighbours' keys), and each
 * source document as a read-only resource `knowledge://source/<path>`. Bad arguments are
 * answered with `isError: true` and one sentence, never a stack trace. Cheap to create: a
 * stateless HTTP transport creates one per request. Built on the SDK's low-level `Server`,
 * so the argument errors are our own sentences and the schemas are declared exactly.
 */
export function createKnowledgeMcpServer(options: KnowledgeMcpServerOptions): Server {
  return createKnowledgeMcpServerFactory(options)();
}

/**
 * `createKnowledgeMcpServer` for many servers over one knowledge base: the settings are
 * checked and the tool list built once, and each call returns a new server (what the
 * stateless HTTP transport needs per request). Bad settings are refused here, at once.
 */
export function createKnowledgeMcpServerFactory(options: KnowledgeMcpServerOptions): () => Server {
  const settings = readMcpServerSettings(options.settings ?? {});
  const { retriever, store } = options;
  const { lookup: lookupTool, fetch: fetchTool } = knowledgeMcpTools(settings);
  const lookupName = lookupTool.definition.name;
  // fetch_evidence needs a store that reads chunks back by id (the local index, Pinecone).
  const canFetch = canFetchRecords(store.port);
  const tools = canFetch ? [lookupTool.definition, fetchTool.definition] : [lookupTool.definition];
  const toolNames = tools.map((tool) => tool.name).join(" and ");
  const traceToolCall = createToolCallTracer(tools.map((tool) => tool.name));

  async function lookup(args: unknown, signal: AbortSignal): Promise<CallToolResult> {
    // The LangChain tool's schema and wording (`parseToolArguments`), under the server's settings.
    const { query, filter: callerFilter } = readToolArguments(lookupTool.input, args, lookupTool.usage);
    const filter = callerFilter === undefined ? settings.filter : andFilters(settings.filter, validateMetadataFilter(callerFilter));
    const result = await retriever.lookup(query, { ...(filter ? { filter } : {}), signal });
    return {
      content: [{ type: "text", text: renderEvidenceContent(result) }],
      _meta: { [resultMetaKey]: lookupResultMeta(result) },
    };
  }

  async function fetch(args: unknown, signal: AbortSignal): Promise<CallToolResult> {
    const { document_id: documentId } = readToolArguments(fetchTool.input, args, fetchTool.usage);
    const fetched = await fetchEvidence(store.port, documentId, settings.filter, lookupName, signal);
    return { content: [{ type: "text", text: renderFetchedEvidence(fetched) }], _meta: { [resultMetaKey]: fetchedEvidenceMeta(fetched) } };
  }

  // The SDK builds a JSON Schema validator (an Ajv instance) for each server unless given one;
  // a stateless HTTP server makes a server per request, so they share this one.
  const validator = new AjvJsonSchemaValidator();
  const sources = { stateDirectory: store.stateDirectory, port: store.port, ...(settings.filter ? { filter: settings.filter } : {}) };
  return () => {
    const server = new Server(
      { name: "lookup-knowledge", title: "lookup-knowledge", version },
      {
        capabilities: { tools: {}, resources: {} },
        jsonSchemaValidator: validator,
        instructions: `Use ${lookupName} to find evidence in the knowledge base; cite blocks by their document_id. When it says there is no evidence, do not answer from the knowledge base.`,
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    // Each call is a server span (OpenTelemetry, when installed), the lookup's span its child.
    server.setRequestHandler(
      CallToolRequestSchema,
      (request, extra): Promise<CallToolResult> =>
        traceToolCall(request, extra, async () => {
          const { name, arguments: args } = request.params;
          try {
            if (name === lookupName) return await lookup(args, extra.signal);
            if (name === fetchToolName && canFetch) return await fetch(args, extra.signal);
          } catch (error) {
            return toolError(error, name === fetchToolName ? fetchTool.usage : lookupTool.usage);
          }
          throw protocolError(ErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(name.slice(0, 80))}: this server has ${toolNames}.`);
        }),
    );
    serveSourceDocuments(server, sources, settings.resourcesPerPage);
    return server;
  };
}

/** A tool error: one sentence for the model, never a stack trace. */
function toolError(error: unknown, usage: string): CallToolResult {
  let text: string;
  if (ToolArgumentError.isInstance(error) || InvalidFilterError.isInstance(error)) text = error.message;
  else if (InvalidQueryError.isInstance(error))
    text = `query must contain text (it holds only spaces, control or invisible characters). ${usage}`;
  else {
    // A store's own message can hold local paths and internals: the model reads its code only.
    console.error(`lookup-knowledge mcp: ${firstLine(errorMessage(error))}`);
    text = `The call failed (${failureCode(error)}); the server's log holds the details.`;
  }
  return { content: [{ type: "text", text }], isError: true };
}

/** An error's code as a model may read it (letters, digits and `_`), else `failed`. */
function failureCode(error: unknown): string {
  const code = LookupKnowledgeError.isInstance(error) ? error.code : "";
  return /^[a-z0-9_]{1,64}$/i.test(code) ? code : "failed";
}

function firstLine(text: string): string {
  return (text.split("\n")[0] ?? "").slice(0, 300);
}
