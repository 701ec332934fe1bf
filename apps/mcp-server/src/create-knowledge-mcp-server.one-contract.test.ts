import type { ToolMessage } from "@langchain/core/messages";
import { createLookupKnowledgeTool } from "@lookup-knowledge/agent-tool";
import {
  createLookupKnowledgeInputSchema,
  lookupKnowledgeDescription,
  lookupKnowledgeInputSchema,
  lookupKnowledgeUsage,
} from "@lookup-knowledge/agent-tool/tool-input";
import { describe, expect, it } from "vitest";
import type { KnowledgeMcpServerOptions } from "./create-knowledge-mcp-server.js";
import { connectClient, textOf } from "./test/connect-client.js";

// Issue 34, item 3 ("every contract once"): the MCP tool and the LangChain tool take their
// arguments from one zod schema, declared to MCP clients as the portable part of its JSON
// Schema (pinned below), and word a bad argument the same way. None of these calls reaches the
// retriever or the store.

const unreachable = () => {
  throw new Error("a call with bad arguments reached the retriever or the store");
};
// A port that reads records back, so the server lists fetch_evidence too.
const port = { search: unreachable, fetchRecords: unreachable };
const options = (settings: KnowledgeMcpServerOptions["settings"] = {}): KnowledgeMcpServerOptions => ({
  retriever: { lookup: unreachable },
  store: { port, stateDirectory: "/nonexistent" },
  settings,
});
const langChainTool = () => createLookupKnowledgeTool({ lookup: unreachable } as never);

const queryDescription = "What to look up: a question or keywords, in the user's language.";
const filterDescription = 'A filter on chunk metadata, Pinecone style: {"category": {"$eq": "billing"}}; $and / $or combine.';

// The keywords a listed input schema may use: the part of JSON Schema that model providers'
// function-calling schemas take (clients hand the schema to the model as it is). Not `$schema`,
// `propertyNames` (Gemini refuses them), nor `pattern` (grammar builders refuse or anchor `\S`).
const portableKeywords = new Set(["type", "properties", "required", "additionalProperties", "description", "minLength", "maxLength"]);

function nonPortableKeywords(schema: unknown, at = "inputSchema"): string[] {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [`${at} is not a schema object`];
  return Object.entries(schema).flatMap(([keyword, value]): string[] => {
    if (!portableKeywords.has(keyword)) return [`${at}.${keyword}`];
    if (keyword === "additionalProperties" && value !== false) return [`${at}.additionalProperties is not false`];
    if (keyword !== "properties") return [];
    return Object.entries(value as object).flatMap(([name, property]) => nonPortableKeywords(property, `${at}.properties.${name}`));
  });
}

describe("one input contract for the MCP server and the LangChain tool", () => {
  it("R2: the listed input schemas, pinned, name the arguments of the agent tool's zod schema", async () => {
    await using client = await connectClient(options());
    const [lookup, fetch] = (await client.listTools()).tools;
    expect(lookup?.inputSchema).toStrictEqual({
      type: "object",
      properties: { query: { type: "string", minLength: 1, maxLength: 8000, description: queryDescription } },
      required: ["query"],
      additionalProperties: false,
    });
    expect(fetch?.inputSchema).toStrictEqual({
      type: "object",
      properties: {
        document_id: { type: "string", minLength: 1, maxLength: 20000, description: "A document_id from a lookup_knowledge result." },
      },
      required: ["document_id"],
      additionalProperties: false,
    });
    expect(lookup?.description).toBe(lookupKnowledgeDescription);
    // The LangChain tool takes the same arguments with the same schema (no length bound of the server's).
    const tool = langChainTool();
    expect(tool.schema).toBe(lookupKnowledgeInputSchema);
    expect(tool.description).toBe(lookup?.description);
    expect(Object.keys(lookup?.inputSchema.properties ?? {})).toEqual(Object.keys(lookupKnowledgeInputSchema.shape));
  });

  it("R2, R12: with callerFilter, the listed schema, pinned, adds an optional filter that is any object", async () => {
    await using client = await connectClient(options({ callerFilter: true, maxQueryChars: 100 }));
    const [lookup] = (await client.listTools()).tools;
    expect(lookup?.inputSchema).toStrictEqual({
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, maxLength: 100, description: queryDescription },
        filter: { type: "object", description: filterDescription },
      },
      required: ["query"],
      additionalProperties: false,
    });
    expect(Object.keys(lookup?.inputSchema.properties ?? {})).toEqual(
      Object.keys(createLookupKnowledgeInputSchema({ callerFilter: true }).shape),
    );
  });

  it.each([
    [{}],
    [{ callerFilter: true }],
    [{ callerFilter: true, maxQueryChars: 16, toolName: "kb_search", filter: { tenant: { $eq: "acme" } } }],
  ])("R2: under the settings %j every listed input schema keeps to the portable keywords", async (settings) => {
    await using client = await connectClient(options(settings));
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(2);
    for (const listed of tools) expect(nonPortableKeywords(listed.inputSchema), listed.name).toEqual([]);
  });

  it.each([
    [{ q: "refund window" }],
    [{}],
    [{ query: "" }],
    [{ query: " \t " }],
    [{ query: 42 }],
    [{ query: null }],
    [{ query: "refund", extra: 1 }],
    [{ query: ["refund"], a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 }],
  ])("R2: the arguments %j get the same problem sentence from the MCP server and the LangChain tool", async (args) => {
    await using client = await connectClient(options());
    const mcp = await client.callTool({ name: "lookup_knowledge", arguments: args });
    expect(mcp.isError).toBe(true);
    const message = (await langChainTool().invoke({ type: "tool_call", id: "call-1", name: "lookup_knowledge", args })) as ToolMessage;
    expect(message.status).toBe("error");
    const content = String(message.content);
    const problems = /^Invalid arguments for lookup_knowledge: (.+)\. Call it again with only these arguments: /.exec(content)?.[1];
    expect(problems, content).toBeDefined();
    expect(content).toBe(`Invalid arguments for lookup_knowledge: ${problems}. ${lookupKnowledgeUsage("it")}`);
    expect(textOf(mcp)).toBe(`${problems}. ${lookupKnowledgeUsage("lookup_knowledge")}`);
  });
});
