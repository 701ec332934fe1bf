import { openKnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { createKnowledgeMcpServer } from "../create-knowledge-mcp-server.js";
import { serveMcpStdio } from "../serve-mcp-stdio.js";

// The bench's stdio server: the knowledge base of the data folder given as the first argument,
// served on stdio (what `lookup-knowledge mcp` does, without the CLI's settings and trace spool).
const dataDirectory = process.argv[2];
if (dataDirectory === undefined) throw new Error("usage: stdio-server.js <data folder>");
const knowledgeBase = await openKnowledgeBase({ dataDirectory, onWarning: () => undefined });
const served = await serveMcpStdio(createKnowledgeMcpServer({ retriever: knowledgeBase.retriever, store: knowledgeBase.store }));
await served.closed;
await knowledgeBase.close();
