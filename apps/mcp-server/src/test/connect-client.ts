import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createKnowledgeMcpServer, type KnowledgeMcpServerOptions } from "../create-knowledge-mcp-server.js";
import { connectGuarded } from "../connect-guarded.js";

/** The SDK's own client connected in process to a knowledge MCP server. */
export async function connectClient(options: KnowledgeMcpServerOptions): Promise<Client & { [Symbol.asyncDispose](): Promise<void> }> {
  const server = createKnowledgeMcpServer(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await connectGuarded(server, serverSide);
  await client.connect(clientSide);
  return Object.assign(client, {
    async [Symbol.asyncDispose]() {
      await client.close();
      await server.close();
    },
  });
}

/** The text of a tool result's single text content. */
export function textOf(result: unknown): string {
  const content = (result as { content?: unknown }).content as Array<{ type: string; text?: string }>;
  return content.map((part) => (part.type === "text" ? (part.text ?? "") : `[${part.type}]`)).join("\n");
}
