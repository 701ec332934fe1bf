import type { LookupResult } from "@lookup-knowledge/core";
import type { IngestReport } from "@lookup-knowledge/ingest";
import { createDurableTraceStore, type StoredToolInvocation } from "@lookup-knowledge/trace-store";
import { createLookupKnowledgeTool } from "@lookup-knowledge/agent-tool";
import { ingestIntoLocalIndex, openLocalKnowledgeBase, tracesDirectory } from "@lookup-knowledge/agent-tool/local";

export interface DemoLookup {
  label: string;
  question: string;
  content: string;
  result: LookupResult;
}

/** The four lookups of `pnpm start`, over `examples/knowledge-base` (see its README.txt). */
export const demoQuestions = [
  ["With evidence: the L0 domain filter (category billing) is used", "Who can approve a partial refund on a paid invoice?"],
  [
    "Fallback: L0 points at billing, the answer lives in integrations; the retry drops only the L0 filter",
    "What VAT code mapping does the nightly sync need before it can post documents?",
  ],
  ["A Chinese question, answered by a Chinese document", "如何为已付款的发票申请退款？"],
  ["No evidence: an honest found=false", "What is the boiling point of ethanol?"],
] as const;

/**
 * The demo of `pnpm start`: ingests a Markdown folder into the embedded index in
 * `dataDirectory` (incrementally: a second run writes nothing), then runs the demo
 * questions through the real `lookup_knowledge` tool. Every lookup leaves a record in the
 * durable trace store of the data folder (embedded, or PostgreSQL with `databaseUrl`);
 * `traces` are this run's, newest first, as `lookup-knowledge traces` lists them.
 */
export async function runDemo(input: { knowledgeBase: string; dataDirectory: string; databaseUrl?: string }): Promise<{
  ingest: IngestReport;
  lookups: DemoLookup[];
  traces: StoredToolInvocation[];
  traceLocation: string;
}> {
  const ingest = await ingestIntoLocalIndex({ root: input.knowledgeBase, dataDirectory: input.dataDirectory });

  const traceStore = createDurableTraceStore({
    directory: tracesDirectory(input.dataDirectory),
    ...(input.databaseUrl ? { databaseUrl: input.databaseUrl } : {}),
  });
  const started = new Date();
  const lookups: DemoLookup[] = [];
  let traces: StoredToolInvocation[];
  try {
    const knowledgeBase = await openLocalKnowledgeBase({ dataDirectory: input.dataDirectory, traceStore });
    const lookupKnowledge = createLookupKnowledgeTool(knowledgeBase.retriever);
    try {
      for (const [index, [label, question]] of demoQuestions.entries()) {
        const message = await lookupKnowledge.invoke({
          type: "tool_call",
          id: `demo-${index}`,
          name: "lookup_knowledge",
          args: { query: question },
        });
        lookups.push({ label, question, content: String(message.content), result: message.artifact as LookupResult });
      }
    } finally {
      await knowledgeBase.close(); // flushes the spooled records into the database
    }
    traces = await traceStore.list({ since: started, limit: demoQuestions.length });
  } finally {
    await traceStore.close();
  }
  return { ingest, lookups, traces, traceLocation: traceStore.databaseLocation };
}
