import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tracesDirectory } from "@lookup-knowledge/agent-tool/local";
import { ingestIntoStore, openKnowledgeBase, type KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { createDurableTraceStore, type DurableTraceStore } from "@lookup-knowledge/trace-store";
import { serveInspector, type InspectorServer } from "../serve-inspector.js";

/** The example knowledge base of the repository. */
export const exampleKnowledgeBase = fileURLToPath(new URL("../../../../examples/knowledge-base", import.meta.url));

/** Four lookups like the demo's: one on billing, one fallback, one Chinese, one with no evidence. */
export const recordedQueries = [
  "Who can issue a refund for a paid invoice?",
  "What VAT code mapping does the nightly sync need before it can post documents?",
  "如何为已付款的发票申请退款？",
  "What is the boiling point of ethanol?",
];

export interface InspectedBase {
  folder: string;
  knowledgeBase: KnowledgeBase;
  traces: DurableTraceStore;
  server: InspectorServer;
  close(): Promise<void>;
}

/**
 * The example base really ingested into a temp data folder, the demo's lookups recorded in
 * its durable trace store (embedded PGlite), and the inspector serving both on a free port.
 */
export async function inspectExampleBase(options: { queryStorage?: "text" | "hash" } = {}): Promise<InspectedBase> {
  const folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-inspector-"));
  return inspectIngestedBase({ folder, root: exampleKnowledgeBase, queries: recordedQueries, ...options });
}

/**
 * `root` really ingested into `folder`/data, `queries` looked up and recorded in its durable
 * trace store, and the inspector serving both on a free port; `close` removes `folder`.
 */
export async function inspectIngestedBase(options: {
  folder: string;
  root: string;
  queries: readonly string[];
  queryStorage?: "text" | "hash";
  /** Records more lookups after `queries` (the Gaps tests' lookups on earlier days). */
  record?: (knowledgeBase: KnowledgeBase) => Promise<void>;
}): Promise<InspectedBase> {
  const { folder } = options;
  const dataDirectory = join(folder, "data");
  const queryStorage = options.queryStorage ?? "text";
  await ingestIntoStore({ root: options.root, dataDirectory });
  const traces = createDurableTraceStore({ directory: tracesDirectory(dataDirectory), queryStorage, flushIntervalMs: 0 });
  const knowledgeBase = await openKnowledgeBase({ dataDirectory, traceStore: traces });
  for (const query of options.queries) await knowledgeBase.retriever.lookup(query);
  await options.record?.(knowledgeBase);
  await knowledgeBase.retriever.flushTraces();
  const server = await serveInspector({
    knowledgeBase,
    traces,
    queryStorage,
    port: 0,
    redact: (text) => text.replace(/\/\/[^@\s]*@/g, "//***@"),
  });
  return {
    folder,
    knowledgeBase,
    traces,
    server,
    close: async () => {
      await server.close();
      await knowledgeBase.close();
      await traces.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
