import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { lookupResultMetaSchema, resultMetaKey } from "@lookup-knowledge/mcp-server";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleKnowledgeBase, runLookupKnowledge } from "./test/run-lookup-knowledge.js";
import { cliEnvironment, cliPath } from "./test/spawn-mcp-server.js";

describe("lookup-knowledge mcp in a real LangChain agent loop (@langchain/mcp-adapters)", () => {
  let folder: string;
  let data: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-mcp-agent-"));
    data = join(folder, ".lookup-knowledge");
    expect(await runLookupKnowledge(folder, "--data", data, "ingest", "--no-progress", exampleKnowledgeBase)).toMatchObject({ code: 0 });
  }, 120_000);
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("issue 12: createAgent loads lookup_knowledge through MultiServerMCPClient (stdio, the real bin) and calls it", async () => {
    const client = new MultiServerMCPClient({
      mcpServers: {
        "lookup-knowledge": {
          transport: "stdio",
          command: process.execPath,
          args: [cliPath, "--data", data, "mcp"],
          env: cliEnvironment(),
        },
      },
    });
    try {
      const tools = await client.getTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(["fetch_evidence", "lookup_knowledge"]);
      const model = fakeModel()
        .respondWithTools([{ name: "lookup_knowledge", args: { query: "Who can issue a refund for a paid invoice?" }, id: "call-refund" }])
        .respond(new AIMessage("Owners and Billing Admins can refund a paid invoice."));
      const agent = createAgent({ model, tools });

      const state = await agent.invoke({ messages: [new HumanMessage("Who is allowed to refund invoices?")] });

      const toolMessages = state.messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
      expect(toolMessages).toHaveLength(1);
      const [toolMessage] = toolMessages;
      expect(toolMessage?.name).toBe("lookup_knowledge");
      expect(toolMessage?.status).not.toBe("error");
      // With `_meta` beside one text block, the adapter hands the model that block as JSON (its
      // text and the meta) and puts the meta in the artifact. The evidence is in the text alone:
      // the meta names the blocks (ids, sources, scores) without their content (issue 35 item 2).
      const block = JSON.parse(String(toolMessage?.content)) as { type: string; text: string; meta: Record<string, unknown> };
      expect(block.type).toBe("text");
      expect(block.text).toContain('source="billing/refunds.md"');
      expect(block.text).toMatch(/<evidence document_id="[^"]+#chunk-\d+"/);
      const meta = lookupResultMetaSchema.parse(block.meta[resultMetaKey]);
      expect(meta.found).toBe(true);
      expect(Object.keys(block).sort()).toEqual(["meta", "text", "type"]);
      const firstContent = /<evidence [^\n]*>\n([^\n]+)/.exec(block.text)?.[1] ?? "";
      expect(firstContent.length).toBeGreaterThan(10);
      expect(String(toolMessage?.content).split(JSON.stringify(firstContent).slice(1, -1))).toHaveLength(2);
      expect(toolMessage?.artifact).toEqual(expect.arrayContaining([expect.objectContaining({ type: "mcp_meta" })]));
      // The model read the evidence on its second turn.
      const secondTurn = model.calls[1]?.messages ?? [];
      expect(
        secondTurn.some((message) => ToolMessage.isInstance(message) && JSON.stringify(message.content).includes("billing/refunds.md")),
      ).toBe(true);
      expect(state.messages.at(-1)?.content).toMatch(/Billing Admins/);
    } finally {
      await client.close();
    }
  }, 120_000);
});
