import type { LookupResult } from "@lookup-knowledge/core";
import { createL0Index } from "@lookup-knowledge/l0-hints";
import { createInMemorySearchPort } from "@lookup-knowledge/search-port/testing";
import { createInMemoryTraceStore, type ToolInvocationRecord } from "@lookup-knowledge/trace-store";
import { createKnowledgeRetriever } from "../create-knowledge-retriever.js";
import { createLookupKnowledgeTool } from "../create-lookup-knowledge-tool.js";
import { demoChunks, demoEntries } from "./demo-knowledge.js";

export interface DemoLookup {
  label: string;
  question: string;
  content: string;
  result: LookupResult;
}

export const demoQuestions = [
  ["With evidence (the L0 domain filter is used)", "Who can refund a paid invoice?"],
  ["Fallback (R8: the filtered request finds nothing; the retry drops only the L0 filter)", "Are tax lines included when I export invoices?"],
  ["No evidence (an honest found=false)", "What is the capital of Mongolia?"],
] as const;

/**
 * The demo of `pnpm start`: lookups through the real `lookup_knowledge` tool over a small
 * in-memory knowledge base about an invented product.
 */
export async function runDemo(): Promise<{ lookups: DemoLookup[]; traces: ToolInvocationRecord[] }> {
  const searchPort = createInMemorySearchPort(
    demoChunks.map(({ content, ...metadata }) => ({ id: `${metadata.docId}#chunk-${metadata.chunkIndex}`, content, metadata })),
  );
  // An entry for a document that is not loaded: its domain filter finds nothing, so L1 falls back.
  const l0Index = createL0Index([
    ...demoEntries,
    { id: "billing/tax", source: "billing/tax.md", title: "Tax rules", keywords: ["tax", "vat"], domain: "tax" },
  ]);
  const traceStore = createInMemoryTraceStore();
  const retriever = createKnowledgeRetriever({ searchPort, l0Index, traceStore, config: { "rag.return-n": 3 } });
  const lookupKnowledge = createLookupKnowledgeTool(retriever);

  const lookups: DemoLookup[] = [];
  for (const [index, [label, question]] of demoQuestions.entries()) {
    const message = await lookupKnowledge.invoke({ type: "tool_call", id: `demo-${index}`, name: "lookup_knowledge", args: { query: question } });
    lookups.push({ label, question, content: String(message.content), result: message.artifact as LookupResult });
  }
  await retriever.close();
  return { lookups, traces: traceStore.list() };
}
