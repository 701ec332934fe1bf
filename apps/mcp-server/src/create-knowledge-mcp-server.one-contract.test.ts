import type { ToolMessage } from "@langchain/core/messages";
import { createLookupKnowledgeTool } from "@lookup-knowledge/agent-tool";
import {
  createLookupKnowledgeInputSchema,
  lookupKnowledgeDescription,
  lookupKnowledgeInputSchema,
  lookupKnowledgeUsage,
} from "@lookup-knowledge/agent-tool/tool-input";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { KnowledgeMcpServerOptions } from "./create-knowledge-mcp-server.js";
import { connectClient, textOf } from "./test/connect-client.js";

// Issue 34, item 3 ("every contract once"): the MCP tool and the LangChain tool take their
// arguments from one zod schema, declared to MCP clients as its JSON Schema, and word a bad
// argument the same way. None of these calls reaches the retriever or the store.

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
const jsonSchemaOf = (schema: z.ZodType) => z.toJSONSchema(schema, { target: "draft-2020-12", io: "input" });
const langChainTool = () => createLookupKnowledgeTool({ lookup: unreachable } as never);

describe("one input contract for the MCP server and the LangChain tool", () => {
  it("R2: the listed lookup_knowledge inputSchema is the JSON Schema of the agent tool's zod schema", async () => {
    await using client = await connectClient(options());
    const [lookup, fetch] = (await client.listTools()).tools;
    expect(lookup?.inputSchema).toEqual(jsonSchemaOf(createLookupKnowledgeInputSchema({ maxQueryChars: 8000 })));
    expect(lookup?.description).toBe(lookupKnowledgeDescription);
    expect(lookup?.inputSchema).toMatchObject({
      type: "object",
      properties: { query: { type: "string", minLength: 1, maxLength: 8000, description: expect.stringMatching(/^What to look up/) } },
      required: ["query"],
      additionalProperties: false,
    });
    expect(fetch?.inputSchema).toMatchObject({
      type: "object",
      properties: { document_id: { type: "string", minLength: 1, description: "A document_id from a lookup_knowledge result." } },
      required: ["document_id"],
      additionalProperties: false,
    });
    // The LangChain tool's schema is the same one, without the server's length bound.
    const tool = langChainTool();
    expect(tool.schema).toBe(lookupKnowledgeInputSchema);
    expect(tool.description).toBe(lookup?.description);
    const { maxLength: _bound, ...query } = (lookup?.inputSchema.properties?.["query"] ?? {}) as Record<string, unknown>;
    expect(jsonSchemaOf(lookupKnowledgeInputSchema)).toEqual({ ...lookup?.inputSchema, properties: { query } });
  });

  it("R2, R12: with callerFilter, the listed schema is the agent tool's schema with its optional filter", async () => {
    await using client = await connectClient(options({ callerFilter: true, maxQueryChars: 100 }));
    const [lookup] = (await client.listTools()).tools;
    expect(lookup?.inputSchema).toEqual(jsonSchemaOf(createLookupKnowledgeInputSchema({ maxQueryChars: 100, callerFilter: true })));
    expect(lookup?.inputSchema).toMatchObject({ required: ["query"], properties: { filter: { type: "object" } } });
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
    const problems = /^Invalid arguments for lookup_knowledge: (.+)\. Call it with /.exec(content)?.[1];
    expect(problems, content).toBeDefined();
    expect(content).toBe(`Invalid arguments for lookup_knowledge: ${problems}. ${lookupKnowledgeUsage("it")}`);
    expect(textOf(mcp)).toBe(`${problems}. ${lookupKnowledgeUsage("lookup_knowledge")}`);
  });
});
