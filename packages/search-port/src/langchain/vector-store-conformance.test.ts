import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { LibSQLVectorStore } from "@langchain/community/vectorstores/libsql";
import { createClient } from "@libsql/client";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { afterAll, beforeAll, describe, it } from "vitest";
import { describePortConformance } from "../testing/index.js";
import { createVectorStoreSearchPort } from "./create-vector-store-search-port.js";

const test = { describe, it, beforeAll, afterAll };
const embeddings = createOfflineEmbeddings();
const dimension = (await embeddings.embedQuery("dimension probe")).length;

describePortConformance(
  "LangChain MemoryVectorStore",
  () => {
    const port = createVectorStoreSearchPort({ vectorStore: new MemoryVectorStore(embeddings) });
    return { port, writer: port };
  },
  { test },
);

let folder = "";
let stores = 0;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-libsql-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describePortConformance(
  "LangChain LibSQLVectorStore (local file)",
  async () => {
    stores += 1;
    const db = createClient({ url: `file:${join(folder, `store-${stores}.db`)}` });
    await db.execute(`CREATE TABLE chunks (content TEXT, metadata TEXT, embedding F32_BLOB(${dimension}))`);
    await db.execute("CREATE INDEX idx_chunks_embedding ON chunks (libsql_vector_idx(embedding))");
    const port = createVectorStoreSearchPort({
      vectorStore: new LibSQLVectorStore(embeddings, { db, table: "chunks", column: "embedding" }),
    });
    return {
      port,
      writer: port,
      async close() {
        db.close();
      },
    };
  },
  { test },
);
