import { existsSync } from "node:fs";
import { join } from "node:path";
import { openSearchStore } from "@lookup-knowledge/agent-tool/stores";
import { lexicalTerms, queryTerms } from "@lookup-knowledge/text";
import type { AnalyzedTerm, KnowledgeGapOptions } from "@lookup-knowledge/trace-store";
import type { CliConfig } from "./cli-config.js";

/** How `gaps` splits and weighs a query's terms: the knowledge base's own analysis. */
export interface GapTerms {
  analyze: KnowledgeGapOptions["analyze"];
  documentFrequencies?: KnowledgeGapOptions["documentFrequencies"];
  /** Lets go of the local index, when one was opened. */
  close(): Promise<void>;
}

/**
 * The terms `gaps` groups queries by: each word retrieval would look for (`queryTerms`: stop
 * words out, Chinese split into words by jieba), as the index holds it (`lexicalTerms`: stemmed,
 * so "pods" and "pod" are one term), shown as the word asked. With the embedded index in the
 * data folder, its document frequencies (`termShare`, `scopeSize`) say how rare each term is in
 * the knowledge base; with another store or no index, the grouping weighs every term the same.
 */
export async function openGapTerms(config: CliConfig): Promise<GapTerms> {
  const analyze = (text: string): AnalyzedTerm[] =>
    queryTerms(text).flatMap((word) => lexicalTerms(word.display).map((term) => ({ term, shown: word.display })));
  // `<data>/index`: agent-tool's `localIndexDirectory`, not imported so that this file does not load its local entry.
  if (config.store.kind !== "local" || !existsSync(join(config.dataDirectory, "index"))) {
    return { analyze, close: async () => undefined };
  }
  const opened = await openSearchStore(config.store, { dataDirectory: config.dataDirectory, mode: "read" }).catch(() => undefined);
  const index = opened?.localIndex;
  if (!opened || !index) {
    await opened?.close();
    return { analyze, close: async () => undefined };
  }
  const documentCount = index.scopeSize();
  return {
    analyze,
    documentFrequencies: { documentCount, frequency: (term) => Math.round(index.termShare(term) * documentCount) },
    close: () => opened.close(),
  };
}
