import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ingestIntoLocalIndex } from "../ingest-into-local-index.js";
import { openLocalKnowledgeBase, type LocalKnowledgeBase } from "../open-local-knowledge-base.js";
import { exampleKnowledgeBase } from "./example-knowledge-base.js";

/** The Markdown files of the example knowledge base the small one is made of. */
export const smallKnowledgeBaseFiles = [
  "billing/refunds.md",
  "billing/invoices.md",
  "integrations/webhooks.md",
  "security/roles-and-permissions.md",
];

/**
 * A real embedded knowledge base of four example documents: the Markdown is copied into a
 * temp folder, ingested into a temp data folder and opened as the demo opens one. `remove`
 * closes it and deletes both folders.
 */
export async function openSmallKnowledgeBase(): Promise<{ knowledgeBase: LocalKnowledgeBase; remove(): Promise<void> }> {
  const folder = await mkdtemp(join(tmpdir(), "small-knowledge-base-"));
  const root = join(folder, "markdown");
  const dataDirectory = join(folder, "data");
  try {
    for (const file of smallKnowledgeBaseFiles) {
      await mkdir(dirname(join(root, file)), { recursive: true });
      await cp(join(exampleKnowledgeBase, file), join(root, file));
    }
    await ingestIntoLocalIndex({ root, dataDirectory });
    const knowledgeBase = await openLocalKnowledgeBase({ dataDirectory, calibration: false });
    return {
      knowledgeBase,
      async remove() {
        try {
          await knowledgeBase.close();
        } finally {
          await rm(folder, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}
