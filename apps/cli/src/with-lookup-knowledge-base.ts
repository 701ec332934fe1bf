import { openKnowledgeBase, type KnowledgeBase } from "@lookup-knowledge/agent-tool/knowledge-base";
import type { CliConfig } from "./cli-config.js";
import { openCliTraceSpool } from "./cli-trace-spool.js";

/**
 * Runs `use` with the knowledge base of the CLI's settings opened for lookups, each lookup
 * appending its trace to the data folder's spool (`traces` moves them into the database);
 * closes both afterwards, whatever `use` does.
 */
export async function withLookupKnowledgeBase<T>(
  config: CliConfig,
  warn: (message: string) => void,
  use: (knowledgeBase: KnowledgeBase) => Promise<T>,
): Promise<T> {
  const traceStore = openCliTraceSpool(config);
  try {
    const knowledgeBase = await openKnowledgeBase({
      dataDirectory: config.dataDirectory,
      store: config.store,
      config: config.ragKeys,
      traceStore,
      onWarning: warn,
    });
    try {
      return await use(knowledgeBase);
    } finally {
      await knowledgeBase.close();
    }
  } finally {
    await traceStore.close();
  }
}
