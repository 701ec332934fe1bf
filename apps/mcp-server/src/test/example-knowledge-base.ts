import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ingestIntoLocalIndex } from "@lookup-knowledge/agent-tool/local";
import { openKnowledgeBase, type KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { createInMemoryTraceStore, type InMemoryTraceStore } from "@lookup-knowledge/trace-store/testing";
import { afterAll, beforeAll } from "vitest";

/** The example knowledge base of the repository (31 documents, English and Chinese). */
export const exampleKnowledgeBase = fileURLToPath(new URL("../../../../examples/knowledge-base", import.meta.url));

export interface IngestedExample {
  /** A copy of the example folder (tests may change its files). */
  root: string;
  dataDirectory: string;
  knowledgeBase: KnowledgeBase;
  traces: InMemoryTraceStore;
  close(): Promise<void>;
}

/** The example knowledge base copied to a temp folder, ingested into the local index and opened with an in-memory trace store. */
export async function ingestExample(): Promise<IngestedExample> {
  const folder = await mkdtemp(join(tmpdir(), "mcp-server-"));
  const root = join(folder, "docs");
  await cp(exampleKnowledgeBase, root, { recursive: true });
  const dataDirectory = join(folder, "data");
  await ingestIntoLocalIndex({ root, dataDirectory });
  const traces = createInMemoryTraceStore();
  const knowledgeBase = await openKnowledgeBase({ dataDirectory, traceStore: traces, onWarning: () => undefined });
  return {
    root,
    dataDirectory,
    knowledgeBase,
    traces,
    async close() {
      await knowledgeBase.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/**
 * The example ingested once for the enclosing `describe` (before its tests, closed after):
 * call the returned function inside a test to get it.
 */
export function useIngestedExample(): () => IngestedExample {
  let example: IngestedExample | undefined;
  beforeAll(async () => {
    example = await ingestExample();
  }, 60_000);
  afterAll(async () => {
    await example?.close();
  });
  return () => {
    if (example === undefined) throw new Error("the example is ingested in beforeAll: use it inside a test");
    return example;
  };
}
