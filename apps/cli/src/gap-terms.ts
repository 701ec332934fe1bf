import { existsSync } from "node:fs";
import { join } from "node:path";
import { openSearchStore } from "@lookup-knowledge/agent-tool/stores";
import { gapQueryTerms } from "@lookup-knowledge/text";
import type { KnowledgeGapOptions } from "@lookup-knowledge/trace-store";
import type { CliConfig } from "./cli-config.js";

/** How `gaps` splits and weighs a query's terms: the knowledge base's own analysis. */
export interface GapTerms {
  analyze: KnowledgeGapOptions["analyze"];
  documentFrequencies?: KnowledgeGapOptions["documentFrequencies"];
  /** Lets go of the local index, when one was opened. */
  close(): Promise<void>;
}

/**
 * The terms `gaps` groups queries by: text's `gapQueryTerms`, the one definition the
 * inspector's Gaps view uses too (each word retrieval would look for, as the index holds it,
 * shown as asked). With the embedded index in the data folder, its record counts say how rare
 * each term is in the knowledge base; with another store or no index, the grouping weighs
 * every term the same.
 */
export async function openGapTerms(config: CliConfig): Promise<GapTerms> {
  const none = async () => undefined;
  // `<data>/index`: agent-tool's `localIndexDirectory`, not imported so that this file does not load its local entry.
  if (config.store.kind !== "local" || !existsSync(join(config.dataDirectory, "index"))) {
    return { ...gapQueryTerms(), close: none };
  }
  const opened = await openSearchStore(config.store, { dataDirectory: config.dataDirectory, mode: "read" }).catch(() => undefined);
  const index = opened?.localIndex;
  if (!opened || !index) {
    await opened?.close();
    return { ...gapQueryTerms(), close: none };
  }
  return {
    ...gapQueryTerms({ termShare: (text) => index.termShare(text), scopeSize: () => index.scopeSize() }),
    close: () => opened.close(),
  };
}
