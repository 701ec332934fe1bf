import { fileURLToPath } from "node:url";

/** The example knowledge base of the repository (31 documents, English and Chinese). */
export const exampleKnowledgeBase = fileURLToPath(new URL("../../../../examples/knowledge-base", import.meta.url));
