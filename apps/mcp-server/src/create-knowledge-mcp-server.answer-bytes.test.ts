import { escapeKnowledgeText } from "@lookup-knowledge/agent-tool/format";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { connectGuarded } from "./connect-guarded.js";
import { createKnowledgeMcpServer } from "./create-knowledge-mcp-server.js";
import { lookupResultMetaSchema } from "./lookup-result-meta.js";
import { resultMetaKey } from "./result-meta-key.js";
import { textOf } from "./test/connect-client.js";
import { useIngestedExample } from "./test/example-knowledge-base.js";

const fiveBlocks = "Who can issue a refund for a paid invoice?";

describe("the size of a lookup_knowledge answer as sent", () => {
  const ingested = useIngestedExample();

  it("issue 35 item 2: a five-block answer carries each block's evidence once; its JSON-RPC bytes are printed", async () => {
    const { retriever, store } = ingested().knowledgeBase;
    const server = createKnowledgeMcpServer({ retriever, store });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // Every message the server sends, as the bytes a transport writes (JSON, UTF-8).
    const sent: JSONRPCMessage[] = [];
    const send = serverSide.send.bind(serverSide);
    serverSide.send = async (message, options) => {
      sent.push(message);
      return send(message, options);
    };
    await connectGuarded(server, serverSide);
    const client = new Client({ name: "bytes-test", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      await client.listTools();
      const result = await client.callTool({ name: "lookup_knowledge", arguments: { query: fiveBlocks } });
      const answer = sent.at(-1) as JSONRPCMessage & { result?: unknown };
      expect(answer.result).toBeDefined();
      const bytes = Buffer.byteLength(JSON.stringify(answer), "utf8");
      const direct = await retriever.lookup(fiveBlocks);
      if (!direct.found) throw new Error("the lookup found nothing");
      expect(direct.contextPack.blocks).toHaveLength(5);
      const contentChars = direct.contextPack.blocks.reduce((sum, block) => sum + block.content.length, 0);
      const text = textOf(result);
      console.log(
        `lookup_knowledge answer, 5 blocks ("${fiveBlocks}"): ${bytes} bytes as sent; text content ${Buffer.byteLength(text, "utf8")} bytes; evidence content ${contentChars} characters`,
      );
      // The text is the one place of the evidence: no structuredContent repeats it, and `_meta`
      // names each block (id, source, rank) without its content.
      expect(result.structuredContent).toBeUndefined();
      const meta = lookupResultMetaSchema.parse(result._meta?.[resultMetaKey]);
      expect(meta.evidence.map((entry) => entry.document_id)).toHaveLength(5);
      // Each block's evidence appears once in the whole answer.
      const serialized = JSON.stringify(answer);
      for (const block of direct.contextPack.blocks) {
        const probe = JSON.stringify(escapeKnowledgeText(block.content, "content").slice(0, 60)).slice(1, -1);
        expect(serialized.split(probe).length - 1, block.evidenceKey).toBe(1);
      }
    } finally {
      await client.close();
      await server.close();
    }
  });
});
