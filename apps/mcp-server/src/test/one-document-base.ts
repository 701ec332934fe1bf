import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ingestIntoLocalIndex } from "@lookup-knowledge/agent-tool/local";
import { openKnowledgeBase, type KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { afterAll, beforeAll } from "vitest";

/**
 * A knowledge base of one Markdown document (`docs/refunds.md` holding `text`), really
 * ingested into the local index in a temp folder before the file's tests and removed after
 * them. Read `knowledgeBase()` inside a test.
 */
export function useOneDocumentBase(prefix: string, text: string): { knowledgeBase(): KnowledgeBase } {
  let folder: string | undefined;
  let opened: KnowledgeBase | undefined;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), prefix));
    await mkdir(join(folder, "docs"));
    await writeFile(join(folder, "docs", "refunds.md"), text);
    await ingestIntoLocalIndex({ root: join(folder, "docs"), dataDirectory: join(folder, "data") });
    opened = await openKnowledgeBase({ dataDirectory: join(folder, "data"), onWarning: () => undefined });
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });
  return {
    knowledgeBase() {
      if (!opened) throw new Error("the knowledge base is opened in beforeAll");
      return opened;
    },
  };
}
