import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ingestIntoStore, openKnowledgeBase, type KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { serveInspector, type InspectorServer } from "../serve-inspector.js";

/** How many documents the generated base holds: more than the 50 the source search lists. */
export const manyDocumentCount = 57;

export interface ManyDocumentsBase {
  knowledgeBase: KnowledgeBase;
  server: InspectorServer;
  close(): Promise<void>;
}

/**
 * A base of `manyDocumentCount` small generated notes (`notes/note-01.md` …), really ingested
 * into a temp data folder and served by the inspector without traces: the source search must cut its list.
 */
export async function inspectManyDocuments(): Promise<ManyDocumentsBase> {
  const folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-inspector-many-"));
  const root = join(folder, "knowledge");
  await mkdir(join(root, "notes"), { recursive: true });
  for (let index = 1; index <= manyDocumentCount; index++) {
    const number = String(index).padStart(2, "0");
    await writeFile(
      join(root, "notes", `note-${number}.md`),
      `---\ntitle: Warehouse note ${number}\ncategory: operations\n---\n\n# Warehouse note ${number}\n\nShelf ${number} holds parts of batch ${index * 7}.\n`,
    );
  }
  const dataDirectory = join(folder, "data");
  await ingestIntoStore({ root, dataDirectory });
  const knowledgeBase = await openKnowledgeBase({ dataDirectory });
  const server = await serveInspector({ knowledgeBase, port: 0 });
  return {
    knowledgeBase,
    server,
    close: async () => {
      await server.close();
      await knowledgeBase.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
