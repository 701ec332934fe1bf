import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLookupKnowledgeTool } from "@lookup-knowledge/agent-tool";
import { ingestIntoLocalIndex } from "@lookup-knowledge/agent-tool/local";
import { openKnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createKnowledgeMcpServerFactory } from "../create-knowledge-mcp-server.js";
import { serveMcpHttp } from "../serve-mcp-http.js";

// `pnpm bench`: what an MCP round trip adds to a lookup on the example knowledge base, over
// Streamable HTTP on loopback and over stdio (a child process), beside the in-process
// LangChain tool call on the same questions. Rounds alternate between the three, so load on
// the machine falls on all of them; the figures are medians and p95 per call, in ms.

const exampleBase = fileURLToPath(new URL("../../../../examples/knowledge-base", import.meta.url));
const stdioServer = fileURLToPath(new URL("./stdio-server.js", import.meta.url));
const rounds = 5;
const callsPerRound = 60;

const questions = (JSON.parse(await readFile(join(exampleBase, "questions.json"), "utf8")) as Array<{ question: string }>).map(
  (entry) => entry.question,
);
const folder = await mkdtemp(join(tmpdir(), "mcp-bench-"));
const dataDirectory = join(folder, "data");
await ingestIntoLocalIndex({ root: exampleBase, dataDirectory });
const knowledgeBase = await openKnowledgeBase({ dataDirectory, onWarning: () => undefined });
const tool = createLookupKnowledgeTool(knowledgeBase.retriever);
const http = await serveMcpHttp(createKnowledgeMcpServerFactory({ retriever: knowledgeBase.retriever, store: knowledgeBase.store }), {
  port: 0,
});
const httpClient = new Client({ name: "bench-http", version: "1" });
await httpClient.connect(new StreamableHTTPClientTransport(new URL(http.url)));
const stdioClient = new Client({ name: "bench-stdio", version: "1" });
await stdioClient.connect(new StdioClientTransport({ command: process.execPath, args: [stdioServer, dataDirectory], stderr: "ignore" }));

type Face = "in-process tool" | "MCP over HTTP" | "MCP over stdio";
const calls: Record<Face, (query: string) => Promise<unknown>> = {
  "in-process tool": (query) => tool.invoke({ query }),
  "MCP over HTTP": (query) => httpClient.callTool({ name: "lookup_knowledge", arguments: { query } }),
  "MCP over stdio": (query) => stdioClient.callTool({ name: "lookup_knowledge", arguments: { query } }),
};
const timings: Record<Face, number[]> = { "in-process tool": [], "MCP over HTTP": [], "MCP over stdio": [] };

for (const face of Object.keys(calls) as Face[]) for (const query of questions.slice(0, 20)) await calls[face](query); // warm-up
for (let round = 0; round < rounds; round += 1) {
  for (const face of Object.keys(calls) as Face[]) {
    for (let index = 0; index < callsPerRound; index += 1) {
      const query = questions[(round * callsPerRound + index) % questions.length] as string;
      const started = performance.now();
      await calls[face](query);
      timings[face].push(performance.now() - started);
    }
  }
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const base = quantile(timings["in-process tool"], 0.5);
console.log(`MCP round trip per lookup, example knowledge base (${questions.length} questions, ${rounds * callsPerRound} calls each, ms)`);
console.log("face              median    p95   added median   ratio");
for (const face of Object.keys(timings) as Face[]) {
  const median = quantile(timings[face], 0.5);
  const p95 = quantile(timings[face], 0.95);
  console.log(
    `${face.padEnd(16)} ${median.toFixed(2).padStart(7)} ${p95.toFixed(2).padStart(6)} ${(median - base).toFixed(2).padStart(14)} ${(median / base).toFixed(2).padStart(7)}x`,
  );
}
const added = quantile(timings["MCP over HTTP"], 0.5) - base;
console.log(`target: under 2 ms added median over HTTP on loopback: ${added < 2 ? "met" : "missed"} (${added.toFixed(2)} ms)`);

await httpClient.close();
await stdioClient.close();
await http.close();
await knowledgeBase.close();
await rm(folder, { recursive: true, force: true });
