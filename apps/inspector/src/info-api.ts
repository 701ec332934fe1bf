import { fallbackReasons, type FallbackReason } from "@lookup-knowledge/core";
import { flatRagConfig, ragConfigKeys } from "./override-rag-config.js";
import type { ApiContext } from "./route-api-request.js";

/** The answer of `GET /api/info`: the store the page inspects and what its views may offer. */
export interface InspectorInfo {
  /** What the page names the store by. */
  store: string;
  /** How many documents the last ingest recorded. */
  documents: number;
  l0Entries: number;
  /** The configuration in use, by flat `rag.*` key. */
  config: Record<string, number | boolean>;
  /** Every `rag.*` key a lookup may override. */
  ragKeys: readonly string[];
  queryStorage: "text" | "hash";
  /** Whether any lookup was recorded in this data folder yet. */
  traces: boolean;
  /** What the Traces view's reason filter offers: the values `reason` accepts. */
  fallbackReasons: readonly FallbackReason[];
}

/** `GET /api/info`: the store, its size and configuration, how queries are stored, and whether there are traces. */
export async function readInspectorInfo(context: ApiContext): Promise<InspectorInfo> {
  const { knowledgeBase } = context;
  return {
    store: context.storeDescription,
    documents: knowledgeBase.documents,
    l0Entries: knowledgeBase.l0Index.size,
    config: flatRagConfig(knowledgeBase.retriever.config),
    ragKeys: ragConfigKeys,
    queryStorage: context.queryIsHash ? "hash" : "text",
    traces: (await context.traces.current()) !== undefined,
    fallbackReasons,
  };
}
